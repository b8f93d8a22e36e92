// The JSON shapes the inspector's backend serves to its page; imported by both sides so they cannot drift apart.

/** The subset of JSON Schema the tool forms understand; anything else falls back to a JSON text field. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  anyOf?: JsonSchema[];
  [key: string]: unknown;
}

export interface ToolSummary {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

export interface DemoSiteInfo {
  url: string;
  links: { label: string; url: string }[];
  users: { username: string; password: string }[];
}

/** GET /api/info */
export interface InfoResponse {
  /** `sessionwright 0.1.0`. */
  server: string;
  kind: 'stdio' | 'http';
  /** The command line or URL the backend connected to. */
  target: string;
  connected: boolean;
  /** Why the connection ended (the server's last stderr lines, for stdio). */
  disconnectReason?: string;
  tools: ToolSummary[];
  /** True when the server has a screenshot tool, so session cards get thumbnails. */
  thumbnails: boolean;
  demoSite?: DemoSiteInfo;
  /** Device names the "New session" options offer (Playwright's list), when the server's create_session takes `device`. */
  devices: string[];
}

/** One tools/call as the log shows it. */
export interface LogEntry {
  id: number;
  tool: string;
  arguments: Record<string, unknown>;
  /** ms since epoch when the call was sent. */
  at: number;
  durationMs: number;
  isError: boolean;
  errorCode?: string;
  errorMessage?: string;
  /** content[0] parsed as JSON (or its raw text). */
  response: unknown;
  /** Image items of the result as data: URLs. */
  images: string[];
  /** The session the call named or created, if any. */
  sessionId?: string;
}

/** POST /api/call */
export interface CallRequest {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface SessionView {
  sessionId: string;
  createdAt: number;
  expiresAt: number;
  url: string;
  title: string;
  /** The device the session was created as, and its page size (from list_sessions). */
  device?: string;
  viewport?: { width: number; height: number } | null;
  /** The options create_session echoed for it (secrets already left out by the server). */
  options?: Record<string, unknown>;
  /** The latest screenshot as a data: URL, taken after the last call on the session. */
  thumbnail?: string;
  thumbnailAt?: number;
  /** A trace is being recorded (start_trace was called and stop_trace not yet). */
  tracing?: boolean;
  /** The last trace stop_trace wrote: where it is, and the backend's download of it. */
  trace?: { path: string; bytes: number; download: string };
}

/** GET /api/sessions */
export interface SessionsResponse {
  sessions: SessionView[];
  maxSessions: number;
  /** The backend's clock, so countdowns stay right even if the page's clock differs. */
  now: number;
}

/** Any non-2xx answer of the API. */
export interface ApiError {
  error: string;
}
