// create_session's options, their echo and an exported storage state: session-core owns these schemas and validates with them; the tools that take or echo them show them.
export { effectiveOptionsSchema, exportedStorageStateSchema, sessionOptionsShape } from '@sessionwright/session-core';
