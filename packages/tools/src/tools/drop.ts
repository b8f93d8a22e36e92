// Dropping files or MIME-typed data onto an element as if dragged from outside the page: upload_file's drop and browser_drop.
import { SessionError, isSessionError } from '@sessionwright/session-core';
import { defined } from '@sessionwright/session-core/parts';
import type { Page } from 'playwright';
import { z } from 'zod';
import type { ElementTarget } from '../page/element.js';
import { actAndSettle, onElement } from '../page/actions.js';

/** Most MIME types one drop may carry. */
const MAX_DATA_TYPES = 20;

/** Data to drop: a map of MIME type to text, as a drag from another application carries it. */
export const dropDataSchema = z
  .record(z.string().min(1).max(200), z.string().max(100_000))
  .refine((data) => Object.keys(data).length <= MAX_DATA_TYPES, { message: `at most ${MAX_DATA_TYPES} MIME types` });

/** upload_file's `drop`: drops the files, and the map's data with them (an empty map: the files only). */
export const dropSchema = dropDataSchema.optional().describe('Drop on it; MIME → text.');

/** A file read for upload_file or a drop: its name, type and bytes. */
export interface UploadPayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

interface DropPayload {
  files: readonly UploadPayload[];
  data?: Record<string, string> | undefined;
}

/**
 * Fires dragenter, dragover and drop at the element's centre with a DataTransfer holding the payload (Playwright's
 * locator.drop). A page whose dragover handler does not accept the drop gets a dragleave, and the call says so.
 */
export async function dropOnto(page: Page, target: ElementTarget, payload: DropPayload, timeout: number, settleTimeout: number): Promise<void> {
  const files = payload.files.map(({ name, mimeType, buffer }) => ({ name, mimeType, buffer }));
  try {
    await onElement(page, target, 'hover', timeout, (locator) =>
      actAndSettle(page, settleTimeout, () => locator.drop({ ...(files.length > 0 ? { files } : {}), ...defined({ data: payload.data }) }, { timeout })),
    );
  } catch (error) {
    if (isSessionError(error) && /did not accept|rejected|preventDefault/i.test(String(error.details?.browserMessage ?? error.message))) {
      throw new SessionError(
        'ELEMENT_NOT_EDITABLE',
        'The element did not accept the drop (its dragover handler does not call preventDefault). Drop onto the drop zone itself; take a snapshot to find it.',
        { details: { reason: 'drop_rejected' } },
      );
    }
    throw error;
  }
}
