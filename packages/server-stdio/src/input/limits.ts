// The largest MCP message the server reads, on stdio and HTTP alike.

/**
 * 32 MiB: room for upload_file's 20 MB of inline content, base64-encoded (about 27 MB), and its JSON around it. The
 * SDK's stdio default (10 MiB) would drop such a message and close the connection; HTTP answers 413 above it.
 */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
