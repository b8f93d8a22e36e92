// upload_file: sets files on a file input (or the chooser an element opens), or drops files or data onto an element, from allowed directories or inline content.
import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { SessionError } from '@sessionwright/session-core';
import { isInside } from '@sessionwright/session-core/parts';
import type { FileChooser } from 'playwright';
import { z } from 'zod';
import type { AllowedRoots } from '../framework/define-tool.js';
import { isServerFile, realOrResolved } from '../framework/server-files.js';
import { dropOnto, dropSchema, type UploadPayload } from './drop.js';
import { onElement } from '../page/actions.js';
import { sessionOutput } from '../framework/response.js';
import { DEFAULT_ELEMENT_TIMEOUT, elementTimeoutSchema, sessionIdSchema, targetInput } from '../framework/schemas.js';
import { defineSessionTool } from '../framework/define-session-tool.js';

/** How long handing the files to the page may take once the element is there: megabytes cross the browser's protocol. */
const TRANSFER_TIMEOUT = 60_000;

/** How long a drop's effects (a navigation it starts) may take to settle. */
const DROP_SETTLE_TIMEOUT = 30_000;

/** Most bytes one call may upload (docs/agent-tools.md). */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export const fileSchema = z.union([
  z.strictObject({
    path: z.string().min(1).max(4_096),
  }),
  z.strictObject({
    name: z.string().min(1).max(255),
    mimeType: z.string().min(1).max(200).optional(),
    contentBase64: z.base64().max(40_000_000),
  }),
]);

export const uploadFile = defineSessionTool({
  name: 'upload_file',
  title: 'Upload files',
  description: 'Gives files to a file input, or to the file chooser an element opens.',
  notes:
    'Puts files into a file input (<input type=file>, even a hidden one), or into the file chooser that clicking an element ' +
    'opens (an "Upload" button), named by a selector or a ref from snapshot. ' +
    'Each file is a path on the server machine ({path}), which must lie inside an allowed directory (--file-root, else the ' +
    "client's MCP roots, else over stdio the working directory), " +
    'or inline content ({name, mimeType?, contentBase64}) — the way for a remote client. Up to 20 MB per call. Next: submit the form (click its button). ' +
    'With drop the files are dropped onto the element instead (a drop zone), as if dragged from outside the page: dragenter, ' +
    'dragover and drop with a DataTransfer; drop is a map of MIME type → text (e.g. {"text/uri-list": "https://…"}) dropped with ' +
    'them, {} for the files only, or the data alone without files. ' +
    'Errors: INVALID_PARAMETERS (a missing file, a path outside the allowed directories or escaping them through .. or a ' +
    'symlink, too large, several files for a single-file input), ' +
    'ELEMENT_NOT_EDITABLE (not a file input and clicking it opened no file chooser; or the element did not accept a drop, ' +
    'details.reason "drop_rejected"), ELEMENT_NOT_CLICKABLE (a chooser button that is hidden or covered), ELEMENT_NOT_FOUND (for ' +
    'a ref, take a new snapshot), ELEMENT_AMBIGUOUS, SESSION_NOT_FOUND / SESSION_EXPIRED.',
  input: targetInput({
    sessionId: sessionIdSchema,
    files: z.array(fileSchema).min(1).max(100).optional().describe('Each {path} or {name, contentBase64}.'),
    drop: dropSchema,
    timeout: elementTimeoutSchema,
  }).refine((args) => args.files !== undefined || Object.keys(args.drop ?? {}).length > 0, {
    message: 'give "files", or data to drop in "drop"',
    path: ['files'],
  }),
  output: sessionOutput({
    success: z.literal(true),
    files: z.array(z.object({ name: z.string(), bytes: z.number() })).describe('The files set or dropped, in order.'),
  }),
  kind: 'action',
  errors: [
    'INVALID_PARAMETERS',
    'ELEMENT_NOT_EDITABLE',
    'ELEMENT_NOT_FOUND',
    'ELEMENT_AMBIGUOUS',
    'ELEMENT_NOT_CLICKABLE',
    'SESSION_NOT_FOUND',
    'SESSION_EXPIRED',
    'BROWSER_ERROR',
  ],
  // The files are read (and their paths checked) before the call waits for its session.
  async prepare({ selector, ref, files = [], drop, timeout }, ctx) {
    const needsRoots = files.some((file) => 'path' in file) && ctx.roots !== undefined;
    const payloads = await readUploads(files, needsRoots && ctx.roots ? await ctx.roots() : { directories: [], source: 'none' });
    return { selector, ref, payloads, timeout, drop: drop === undefined ? undefined : { data: Object.keys(drop).length === 0 ? undefined : drop } };
  },
  defaultTimeout: 'element',
  async handler({ selector, ref, payloads, timeout = DEFAULT_ELEMENT_TIMEOUT, drop }, page, response) {
    if (drop !== undefined) {
      await dropOnto(page, { selector, ref }, { files: payloads, data: drop.data }, timeout, DROP_SETTLE_TIMEOUT);
      return { success: true as const, files: payloads.map((payload) => ({ name: payload.name, bytes: payload.buffer.length })) };
    }
    await onElement(page, { selector, ref }, 'click', timeout, async (locator) => {
      await locator.waitFor({ state: 'attached', timeout });
      const input = await locator.evaluate((element) =>
        element instanceof HTMLInputElement && element.type === 'file' ? { multiple: element.multiple } : null,
      );
      if (input) {
        if (!input.multiple && payloads.length > 1) throw singleFileOnly(payloads.length);
        await locator.setInputFiles(payloads, { timeout: TRANSFER_TIMEOUT });
        return;
      }
      const chooserOpened = page.waitForEvent('filechooser', { timeout }).catch(() => undefined);
      await locator.click({ timeout });
      const chooser: FileChooser | undefined = await chooserOpened;
      if (!chooser) {
        throw new SessionError(
          'ELEMENT_NOT_EDITABLE',
          'The element is not a file input, and clicking it opened no file chooser. Name the <input type=file> itself, or the button that opens the chooser.',
          {
            details: { reason: 'no file chooser' },
          },
        );
      }
      response.session.modal.releaseFileChooser(chooser);
      if (!chooser.isMultiple() && payloads.length > 1) throw singleFileOnly(payloads.length);
      await chooser.setFiles(payloads, { timeout: TRANSFER_TIMEOUT });
    });
    return { success: true as const, files: payloads.map((payload) => ({ name: payload.name, bytes: payload.buffer.length })) };
  },
});

function singleFileOnly(count: number): SessionError {
  return new SessionError('INVALID_PARAMETERS', `This file input takes one file; ${count} were given.`, {
    details: { reason: 'single file input', files: count },
  });
}

/** Reads every file (paths checked against the allowed directories first), all or nothing, within the size limit. */
export async function readUploads(files: z.infer<typeof fileSchema>[], roots: AllowedRoots): Promise<UploadPayload[]> {
  const payloads: UploadPayload[] = [];
  let total = 0;
  for (const [index, file] of files.entries()) {
    const payload = 'path' in file ? await readAllowedFile(file.path, roots, index) : inlineFile(file);
    total += payload.buffer.length;
    if (total > MAX_UPLOAD_BYTES) {
      throw new SessionError('INVALID_PARAMETERS', `The files come to more than 20 MB (${MAX_UPLOAD_BYTES} bytes), the most one call uploads.`, {
        details: { reason: 'too large', limit: MAX_UPLOAD_BYTES, file: index },
      });
    }
    payloads.push(payload);
  }
  return payloads;
}

function inlineFile(file: { name: string; mimeType?: string | undefined; contentBase64: string }): UploadPayload {
  const name = path.basename(file.name.replaceAll('\\', '/')) || 'file';
  return { name, mimeType: file.mimeType ?? mimeTypeOf(name), buffer: Buffer.from(file.contentBase64, 'base64') };
}

/**
 * The file at `raw` (relative paths are taken from the first directory), opened once and read from what was opened:
 * the opened file's own path, every symlink and `..` resolved, must lie inside one of the allowed directories. So a
 * symlink or directory swapped in between a check and the read cannot lead outside: what is checked is what is read.
 * A missing file and a file outside the directories get the same INVALID_PARAMETERS, so an answer never tells what
 * exists outside them.
 */
export async function readAllowedFile(raw: string, roots: AllowedRoots, index = 0): Promise<UploadPayload> {
  if (roots.directories.length === 0) {
    throw new SessionError(
      'INVALID_PARAMETERS',
      'This server reads no files from its disk for this client: send the file inline as {name, contentBase64}, or start the server with --file-root <dir>.',
      { details: { reason: 'no allowed directory', file: index } },
    );
  }
  const base = roots.directories[0] as string;
  const wanted = path.resolve(base, raw);
  const where = `${roots.directories.join(', ')} (${SOURCE_WORDS[roots.source]})`;
  const notAllowed = () =>
    new SessionError(
      'INVALID_PARAMETERS',
      `There is no file at ${raw} inside the directories files may be uploaded from: ${where}. Give a path inside them, or send the file inline as {name, contentBase64}.`,
      { details: { reason: 'not found in allowed directories', path: raw, file: index, allowed: roots.directories } },
    );
  // Non-blocking, so that opening a FIFO does not wait for a writer; only a regular file is read.
  const handle = await open(wanted, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) throw notAllowed();
  try {
    const real = await openedPath(handle, wanted);
    const allowed = roots.directories.map(realOrResolved);
    if (real === undefined || !allowed.some((directory) => isInside(directory, real))) throw notAllowed();
    if (roots.fenced !== undefined) {
      const [fence, own] = [roots.fenced.folder, roots.fenced.own].map(realOrResolved);
      if (isInside(fence as string, real) && !isInside(own as string, real)) throw notAllowed();
    }
    // The server's own files answer as a missing file does, so their presence is not told either.
    if (isServerFile(real, roots.refused)) throw notAllowed();
    const info = await handle.stat();
    if (!info.isFile()) throw new SessionError('INVALID_PARAMETERS', `${raw} is not a file.`, { details: { reason: 'not a file', path: raw, file: index } });
    if (info.size > MAX_UPLOAD_BYTES) {
      throw new SessionError('INVALID_PARAMETERS', `${raw} is larger than 20 MB, the most one call uploads.`, {
        details: { reason: 'too large', path: raw, file: index, limit: MAX_UPLOAD_BYTES },
      });
    }
    const name = path.basename(real);
    return { name, mimeType: mimeTypeOf(name), buffer: await handle.readFile() };
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * The real path of the file `handle` has open: on Linux the kernel's own record of it (/proc/self/fd); elsewhere the
 * path's real path now, accepted only if it is the same file (device and inode) as the one open, which it is not when
 * something was swapped in between. Undefined when that cannot be told.
 */
async function openedPath(handle: FileHandle, wanted: string): Promise<string | undefined> {
  const viaProc = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (viaProc !== undefined && path.isAbsolute(viaProc) && !viaProc.startsWith('/proc/')) return viaProc;
  const real = await realpath(wanted).catch(() => undefined);
  if (real === undefined) return undefined;
  const [opened, named] = await Promise.all([handle.stat(), stat(real).catch(() => undefined)]);
  return named !== undefined && named.dev === opened.dev && named.ino === opened.ino ? real : undefined;
}

const SOURCE_WORDS: Record<AllowedRoots['source'], string> = {
  'file-root': '--file-root',
  'client-roots': "the client's MCP roots",
  'working-directory': "the server's working directory",
  none: 'none',
};

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function mimeTypeOf(name: string): string {
  return MIME_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}
