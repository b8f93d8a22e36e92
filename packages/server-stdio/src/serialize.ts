// The one place a tool outcome becomes an MCP CallToolResult (README: Results).
import type { ToolOutcome } from '@sessionwright/tools';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Redactor } from './redaction.js';

/**
 * How results are written for one server: `images: 'omit'` leaves images out (a screenshot answers its JSON alone);
 * `redactor` hides secrets and URL parameters in every string of the result, and in embedded text files.
 */
export interface SerializeOptions {
  images?: 'allow' | 'omit';
  redactor?: Redactor | undefined;
}

/**
 * Success: structuredContent plus the same object as JSON text first, attachments (images, embedded files) after;
 * with `images: 'omit'` images are left out. Failure: isError plus the error JSON.
 */
export function toCallToolResult(outcome: ToolOutcome, { images = 'allow', redactor }: SerializeOptions = {}): CallToolResult {
  if (!outcome.ok) {
    const error = outcome.error.toJSON();
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(redactor ? redactor.value(error) : error) }] };
  }
  const data = redactor ? redactor.value(outcome.data) : outcome.data;
  const blob = (attachment: { mimeType: string; blob: string }) =>
    redactor && isText(attachment.mimeType)
      ? Buffer.from(redactor.text(Buffer.from(attachment.blob, 'base64').toString('utf8')), 'utf8').toString('base64')
      : attachment.blob;
  return {
    structuredContent: data,
    content: [
      { type: 'text', text: JSON.stringify(data) },
      ...outcome.attachments
        .filter((attachment) => images === 'allow' || attachment.type !== 'image')
        .map((attachment) =>
          attachment.type === 'image'
            ? { type: 'image' as const, data: attachment.data, mimeType: attachment.mimeType }
            : { type: 'resource' as const, resource: { uri: attachment.uri, mimeType: attachment.mimeType, blob: blob(attachment) } },
        ),
    ],
  };
}

/** A file an agent reads as text (a snapshot, a console dump, JSON): secrets in it are hidden too. */
function isText(mimeType: string): boolean {
  return mimeType.startsWith('text/') || /\b(?:json|yaml|xml|javascript)\b/.test(mimeType);
}
