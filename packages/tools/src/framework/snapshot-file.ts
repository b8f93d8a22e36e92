// The playwright profile's action snapshots as files: written to a page-<time>-<random>.yml file in the caller's own folder, and read back as an MCP resource by the caller alone.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Session } from '@sessionwright/session-core';
import type { SessionAccess, ToolOptions } from './define-tool.js';
import { defaultFileName, writeOutputFile } from './output-files.js';
import type { SnapshotFile } from './response.js';

/** The URI of a snapshot file as an MCP resource: this prefix and the file's name. */
export const SNAPSHOT_URI_PREFIX = 'sessionwright://snapshot/';

/** The URI template the server reads those resources through. */
export const SNAPSHOT_URI_TEMPLATE = `${SNAPSHOT_URI_PREFIX}{name}`;

export const SNAPSHOT_MIME_TYPE = 'text/yaml';

/** The names a snapshot file can have (defaultFileName's `page-<time>-<8 hex>.yml`): nothing else is ever read. */
const SNAPSHOT_NAME = /^page-[0-9TZ-]+-[0-9a-f]{8}\.yml$/;

/**
 * Writes `text` (the page's whole snapshot) for a call on `session`: in the caller's folder of --output-dir, else in the
 * session's own folder (a temporary one, gone with the session). Secrets are hidden in it, and it counts against the
 * session's file limits and the folder's --output-max-size like any file a session writes (INVALID_PARAMETERS past them).
 */
export async function writeSnapshotFile(options: ToolOptions, session: Session, text: string): Promise<SnapshotFile> {
  const folder = options.outputDir ?? (await session.downloads.folder());
  const name = defaultFileName('page', 'yml');
  const content = options.redact ? options.redact(text) : text;
  const written = await writeOutputFile({ ...options, outputDir: folder }, path.join(folder, name), content, session.downloads);
  return { path: written, link: { type: 'resource_link', uri: `${SNAPSHOT_URI_PREFIX}${name}`, name, mimeType: SNAPSHOT_MIME_TYPE } };
}

/**
 * The text of the snapshot file `name` names, looked for only where this caller's snapshots are written: its folder of
 * --output-dir, else its open sessions' folders. Undefined for any other name, and for another caller's file, which
 * is not where this caller's files are: the same answer as for a file that does not exist.
 */
export async function readSnapshotFile(name: string, options: ToolOptions, sessions: SessionAccess): Promise<string | undefined> {
  if (!SNAPSHOT_NAME.test(name)) return undefined;
  for (const folder of await snapshotFolders(options, sessions)) {
    const text = await readFile(path.join(folder, name), 'utf8').catch(() => undefined);
    if (text !== undefined) return text;
  }
  return undefined;
}

async function snapshotFolders(options: ToolOptions, sessions: SessionAccess): Promise<string[]> {
  if (options.outputDir !== undefined) return [options.outputDir];
  const folders: string[] = [];
  for (const { sessionId } of await sessions.list()) {
    try {
      const { downloads } = sessions.get(sessionId);
      if (downloads.hasFolder) folders.push(await downloads.folder());
    } catch {
      // Ended meanwhile: its folder went with it.
    }
  }
  return folders;
}
