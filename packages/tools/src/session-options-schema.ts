// create_session's options, their echo and a storage state: session-core owns these schemas and validates with them; the tools that take or echo options show them.
export { effectiveOptionsSchema, sessionOptionsShape, storageStateSchema } from '@sessionwright/session-core';
