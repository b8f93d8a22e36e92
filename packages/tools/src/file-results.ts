// The playwright profile's `filename` arguments: the result written to a file under --output-dir, and the answer says where.
import type { z } from 'zod';
import { z as zod } from 'zod';
import { outputPath, writeOutputFile } from './output-files.js';
import { attachmentsOf, withAttachments, type Attachment } from './response.js';
import type { SessionTool } from './session-tool.js';

/** The `filename` argument: checked before the call reaches its session (no --output-dir, or a name leading out of it). */
export const filenameSchema = zod.string().min(1).max(1_000).optional().describe('Save to this file in --output-dir instead.');

export const FILENAME_NOTE =
  'With filename the result is written to that file inside --output-dir (never outside it; refused without --output-dir) and the answer says where (file).';

/** What a tool writes for `filename`, from its answer; undefined writes nothing (a dialog interrupted the call). */
export interface FileContent<Args> {
  content(data: Record<string, unknown>, attachments: readonly Attachment[], args: Args): string | Uint8Array | undefined;
  /** The answer's fields the file replaces, left out of the answer (an image attachment is always left out). */
  omit: readonly string[];
}

/**
 * The tool, writing its result to the file `filename` names instead of answering it. The tool's own work is untouched:
 * the file is written from the answer the call gives, after the call, and the name is checked before it.
 */
export function savingToFile<Input extends z.ZodObject, Args = z.infer<Input>>(
  tool: SessionTool<Input, z.ZodObject>,
  file: FileContent<Args>,
): SessionTool<Input, z.ZodObject> {
  return {
    ...tool,
    output: tool.output.extend({ file: zod.string().optional().describe('With filename: the file written.') }),
    async handler(args, ctx) {
      const filename = (args as { filename?: string }).filename;
      const target = filename === undefined ? undefined : outputPath(ctx.options, filename);
      const answer = await tool.handler(args, ctx);
      if (target === undefined) return answer;
      const { data, attachments } = attachmentsOf(answer as Record<string, unknown>);
      const found = file.content(data, attachments, args as Args);
      if (found === undefined) return answer;
      const content = typeof found === 'string' && ctx.options.redact ? ctx.options.redact(found) : found;
      // The file counts against the limits of the session the call acted on.
      const sessionId = (args as { sessionId?: string }).sessionId ?? ctx.implicitSession?.current;
      const session = sessionId === undefined ? undefined : tryGet(() => ctx.sessions.get(sessionId));
      const written = await writeOutputFile(ctx.options, target, content, session?.downloads);
      const kept = Object.fromEntries(Object.entries(data).filter(([key]) => !file.omit.includes(key)));
      return withAttachments(
        { ...kept, file: written },
        attachments.filter((attachment) => attachment.type !== 'image'),
      ) as z.infer<z.ZodObject>;
    },
  };
}

function tryGet<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}
