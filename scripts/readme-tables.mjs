#!/usr/bin/env node
// Generates the tables of README.md and docs/ (tools, error codes, flags, config keys) from the built packages: --write updates them, --check fails when one is stale.
//
// Usage (after pnpm build):
//   node scripts/readme-tables.mjs --write   rewrite the generated sections in place (pnpm readme)
//   node scripts/readme-tables.mjs --check   exit 1, naming the sections, when a page differs from what would be generated
//
// Only the text between <!-- NAME:start --> and <!-- NAME:end --> is generated: tools-list in README.md, tools, errors
// and playwright-tools in docs/tools.md, flags, config-keys and config-example in docs/configuration.md. The rest is
// written by hand. A tool's page shows its description (what the model reads), its notes (for people) and its
// arguments from its whole input schema (ranges included, which the model-facing schema leaves to the tool's errors).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readmePath = path.join(root, 'README.md');
const toolsDocPath = path.join(root, 'docs', 'tools.md');
const configDocPath = path.join(root, 'docs', 'configuration.md');
const dist = {
  core: path.join(root, 'packages/session-core/dist/index.js'),
  tools: path.join(root, 'packages/tools/dist/index.js'),
  server: path.join(root, 'packages/server-stdio/dist/index.js'),
  cli: path.join(root, 'packages/server-stdio/dist/cli.js'),
};

/** When each error code is answered: the contract's table, plus WAIT_TIMEOUT. Every code in ERROR_CODES needs a line here. */
const ERROR_WHEN = {
  INVALID_PARAMETERS:
    'arguments missing, of the wrong type, out of range, or unknown (the message lists the accepted ones); an unparsable or disallowed URL; a selector that does not parse',
  SESSION_NOT_FOUND: 'the id was never issued, was closed, or its browser died (`details.reason`: `closed`, `browser_disconnected`)',
  SESSION_EXPIRED: 'the id expired by idle timeout (`--session-timeout`)',
  MAX_SESSIONS_REACHED:
    '`--max-sessions` sessions are open (`details.scope: "server"`, `details.maxSessions`), or this client holds `--max-sessions-per-client` (`details.scope: "client"`); close one first',
  NAVIGATION_FAILED:
    'DNS, connection or TLS failure, timeout, aborted navigation (`details.reason`: `ERR_CONNECTION_REFUSED`, `timeout`, …). An HTTP error status such as 404 is not a failure: `navigate` succeeds and reports `status`',
  ELEMENT_NOT_FOUND: 'the selector or ref matches nothing within the timeout; for a stale ref, take a new snapshot',
  ELEMENT_AMBIGUOUS: 'the selector matches more than one element (`details.count`, `details.matches`)',
  ELEMENT_NOT_CLICKABLE: 'the element exists but is hidden, disabled, detached or covered by another element (`details.reason`)',
  ELEMENT_NOT_EDITABLE: 'the element exists but is not an editable field, or is disabled or readonly',
  WAIT_TIMEOUT: 'a wait condition did not come true within its timeout',
  BROWSER_ERROR: 'the browser failed in any other way; `details.reason` says how (see below)',
};

/** What each BROWSER_ERROR reason means (README: Results). Every reason in BROWSER_ERROR_REASONS needs a line here. */
const REASON_WHEN = {
  cancelled:
    'the client cancelled the call (`notifications/cancelled`). SDK clients drop the answer to a cancelled request; what counts is that the session is free again',
  call_timeout: 'the call ran past `--call-timeout`, or past the shorter `timeout` it was given (`evaluate`); `details.timeout`',
  script_error: 'a page script the agent ran threw (`details.pageMessage`), or the page navigated away under it (`details.navigated: true`)',
  page_crashed: 'the page crashed or was closed under the call; the session opens a fresh page for the next call',
  launch_failed: 'the browser could not start; names the executables tried and how to install one (`details.hint`)',
  browser_unreachable: 'a remote browser endpoint cannot be reached or refused the connection',
  version_mismatch: 'a remote browser endpoint runs another Playwright version; the message names both',
  no_browser_available: 'every browser endpoint is down',
  shutting_down: 'the server is shutting down and takes no new sessions',
  unsupported: 'the browser type cannot do this (e.g. PDF outside Chromium)',
  runaway_page:
    "the session's page passed a bound on events or memory and was stopped: its tabs were closed, a fresh blank page took their place (`details.bound`: `console`, `requests`, `dialogs`, `popups`, `downloads`, `memory`; `details.limit`, `details.observed`); see docs/limits.md",
  store_unavailable:
    "the store cannot be read or written: saved states' folder or key file ([docs/sign-ins.md](sign-ins.md)), or a fleet's Redis ([docs/deploy.md](deploy.md#a-fleet)), where a call that needs it (a new session, a session held by another replica or restored from its checkpoint) waits for its return while the sessions a replica holds keep working",
  unknown: "anything else, including a snapshot the page did not produce in time; the browser's own words in `details.browserMessage`",
};

/** Said under the flags table: what the help text does not show. */
const FLAG_NOTES = [
  'The camelCase spellings of the flags work too (`--sessionTimeout`, `--maxSessions`, `--executablePath`), and so does `--flag=value`.',
  '`--headless`, `--headless true` and `--headless=false` all work. With no `--headless`, the browser is headed, except on Linux without `DISPLAY`/`WAYLAND_DISPLAY`, where it runs headless and says so once on stderr.',
  'A bad value (`--max-sessions 0`, `--session-timeout abc`, `--browser safari`, an unknown flag) exits with status 2 and one line on stderr before anything starts, naming where it came from (`SESSIONWRIGHT_MAX_SESSIONS=0: must be at least 1`).',
  'Every flag is also an environment variable and a config-file key; the command line wins over the environment, which wins over the file. See [docs/configuration.md](docs/configuration.md).',
];

const HINTS = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
];

function fail(message) {
  process.stderr.write(`readme-tables: ${message}\n`);
  process.exit(1);
}

/** A table cell: one line, pipes escaped (GitHub honours \| inside code spans in tables too). */
const cell = (text) =>
  String(text)
    .replace(/\s*\n\s*/g, ' ')
    .replaceAll('|', '\\|');
const code = (text) => `\`${text}\``;
const table = (header, rows) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');

/** How a JSON Schema property reads in a table: its type, its range or its choices. */
function typeOf(schema) {
  if (schema.enum) return schema.enum.map((value) => code(JSON.stringify(value))).join(' | ');
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  if (type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
  const range = [];
  if (schema.minimum !== undefined && schema.maximum !== undefined) range.push(`${schema.minimum}–${schema.maximum}`);
  else if (schema.minimum !== undefined) range.push(`≥ ${schema.minimum}`);
  else if (schema.maximum !== undefined) range.push(`≤ ${schema.maximum}`);
  return range.length ? `${type} (${range.join(', ')})` : type;
}

/** Fills each required field with a value of its type, to ask the tool's own schema which optional fields it still needs. */
function minimalArguments(inputSchema) {
  const sample = (schema) =>
    schema.enum
      ? schema.enum[0]
      : schema.type === 'string'
        ? 'x'
        : schema.type === 'boolean'
          ? false
          : schema.type === 'array'
            ? []
            : schema.type === 'object'
              ? {}
              : (schema.minimum ?? 1);
  return Object.fromEntries((inputSchema.required ?? []).map((key) => [key, sample(inputSchema.properties[key])]));
}

/**
 * `selector` and `ref` name one element; a tool needs exactly one of them, or takes at most one. JSON Schema shows both
 * as optional either way, so the tool's zod schema is asked: does it accept the required fields without either?
 */
function targetRule(tool, inputSchema) {
  const properties = inputSchema.properties ?? {};
  if (!properties.selector || !properties.ref) return undefined;
  const parsed = tool.input.safeParse(minimalArguments(inputSchema));
  const wantsTarget = !parsed.success && parsed.error.issues.some((issue) => issue.path[0] === 'selector' || issue.path[0] === 'ref');
  return wantsTarget ? 'required' : 'optional';
}

function inputsCell(tool, inputSchema) {
  const properties = Object.keys(inputSchema.properties ?? {});
  if (properties.length === 0) return 'none';
  const required = new Set(inputSchema.required ?? []);
  const rule = targetRule(tool, inputSchema);
  const names = [];
  for (const name of properties) {
    if (rule && name === 'ref') continue;
    if (rule && name === 'selector') names.push(`${code('selector')} or ${code('ref')}${rule === 'required' ? '\\*' : ''}`);
    else names.push(`${code(name)}${required.has(name) ? '\\*' : ''}`);
  }
  return names.join(', ');
}

function resultCell(outputSchema) {
  const required = new Set(outputSchema.required ?? []);
  return Object.keys(outputSchema.properties ?? {})
    .map((name) => `${code(name)}${required.has(name) ? '' : '?'}`)
    .join(', ');
}

const hintsOf = (annotations) =>
  HINTS.filter(([key]) => annotations[key])
    .map(([, word]) => word)
    .join(', ') || '—';

/** A tool's whole input schema, as its zod schema gives it: what the docs show of its arguments. */
const inputSchemaOf = (tool) => tool.input.toJSONSchema({ io: 'input' });

/** One tool's part of a page: heading, what the model reads, the notes for people, the arguments. */
function toolDetails(tool, group = '') {
  const inputSchema = inputSchemaOf(tool);
  const properties = Object.entries(inputSchema.properties ?? {});
  const required = new Set(inputSchema.required ?? []);
  const rule = targetRule(tool, inputSchema);
  const requiredCell = (name) =>
    required.has(name)
      ? 'yes'
      : rule && (name === 'selector' || name === 'ref')
        ? rule === 'required'
          ? 'one of selector/ref'
          : 'at most one of selector/ref'
        : 'no';
  const inputs = properties.length
    ? table(
        ['Argument', 'Type', 'Required', 'Description'],
        properties.map(([name, schema]) => [code(name), typeOf(schema), requiredCell(name), schema.description ?? '']),
      )
    : 'No arguments.';
  return [
    `### ${code(tool.name)}: ${tool.title}`,
    '',
    ...(group ? [group, ''] : []),
    tool.description,
    '',
    ...(tool.notes ? [tool.notes, ''] : []),
    inputs,
  ].join('\n');
}

function toolsSection(tools, describeTool) {
  const described = tools.map((tool) => ({ tool, listed: { ...describeTool(tool), inputSchema: inputSchemaOf(tool) } }));
  const summary = table(
    ['Tool', 'Group', 'Title', 'Inputs (\\* required)', 'Result (? optional)', 'Errors', 'Hints'],
    described.map(({ tool, listed }) => [
      code(tool.name),
      tool.capability ? `${code(tool.capability)} (\`--caps ${tool.capability}\`)` : 'default',
      tool.title,
      inputsCell(tool, listed.inputSchema),
      resultCell(listed.outputSchema),
      tool.errors.map(code).join(', '),
      hintsOf(listed.annotations),
    ]),
  );
  const details = described.map(({ tool }) =>
    toolDetails(tool, tool.capability ? `Group \`${tool.capability}\`: listed only with \`--caps ${tool.capability}\` (or \`--caps all\`).` : ''),
  );
  return [
    `<!-- Generated by scripts/readme-tables.mjs from the tool definitions (${tools.length} tools); edit those, then run pnpm readme. -->`,
    '',
    summary,
    '',
    'Group `default` tools are always listed; the others only when `--caps` names their group (`--caps all` for every group). Hints are the MCP tool annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`) that are true. Every call on a session answers its new `expiresAt`.',
    '',
    ...details.flatMap((detail) => [detail, '']),
  ]
    .join('\n')
    .trimEnd();
}

/** docs/tools.md's part for `--profile playwright`: the same for its tools, each with the errors it can answer. */
function playwrightToolsSection(tools) {
  const details = tools.map((tool) => [toolDetails(tool), '', `Errors: ${tool.errors.map(code).join(', ')}.`].join('\n'));
  return [
    `<!-- Generated by scripts/readme-tables.mjs from the playwright profile's tool definitions (${tools.length} tools); edit those, then run pnpm readme. -->`,
    '',
    ...details.flatMap((detail) => [detail, '']),
  ]
    .join('\n')
    .trimEnd();
}

/** README's short list: the tools by what an agent does with them; the groups behind --caps last. */
const TOOL_GROUPS = [
  ['Sessions', ['create_session', 'close_session', 'list_sessions']],
  ['Navigating', ['navigate', 'go_back', 'go_forward', 'reload', 'tabs']],
  ['Reading the page', ['snapshot', 'find', 'screenshot', 'console_messages', 'evaluate', 'wait_for']],
  ['Acting on it', ['click', 'type', 'press_key', 'hover', 'select_option', 'check', 'uncheck', 'drag', 'fill_form', 'upload_file', 'handle_dialog']],
  ['Settings', ['emulate']],
  ['Several steps in one call', ['run_steps']],
];

function toolsListSection(tools, capabilityTools) {
  const placed = new Set(TOOL_GROUPS.flatMap(([, names]) => names));
  const names = (list) => list.map((tool) => code(tool.name)).join(', ');
  const lines = TOOL_GROUPS.map(([group, members]) => [group, tools.filter((tool) => members.includes(tool.name))])
    .concat([['More', tools.filter((tool) => !placed.has(tool.name))]])
    .filter(([, members]) => members.length > 0)
    .map(([group, members]) => `- **${group}**: ${names(members)}`);
  for (const capability of new Set(capabilityTools.map((tool) => tool.capability))) {
    lines.push(`- **With \`--caps ${capability}\`**: ${names(capabilityTools.filter((tool) => tool.capability === capability))}`);
  }
  return [`<!-- Generated by scripts/readme-tables.mjs from the tool definitions; run pnpm readme. -->`, '', ...lines].join('\n');
}

function errorsSection(errorCodes, tools, reasons) {
  const missingReasons = reasons.filter((reason) => !(reason in REASON_WHEN));
  if (missingReasons.length) fail(`no "when" text for reasons ${missingReasons.join(', ')}: add it to REASON_WHEN in scripts/readme-tables.mjs`);
  const unknownReasons = Object.keys(REASON_WHEN).filter((reason) => !reasons.includes(reason));
  if (unknownReasons.length) fail(`REASON_WHEN names reasons that BROWSER_ERROR_REASONS does not have: ${unknownReasons.join(', ')}`);
  const missing = errorCodes.filter((errorCode) => !(errorCode in ERROR_WHEN));
  if (missing.length) fail(`no "when" text for ${missing.join(', ')}: add it to ERROR_WHEN in scripts/readme-tables.mjs`);
  const unknown = Object.keys(ERROR_WHEN).filter((errorCode) => !errorCodes.includes(errorCode));
  if (unknown.length) fail(`ERROR_WHEN names codes that ERROR_CODES does not have: ${unknown.join(', ')}`);
  const sessionTools = tools.filter((tool) => 'sessionId' in tool.input.shape).map((tool) => tool.name);
  const rows = errorCodes.map((errorCode) => {
    const users = tools.filter((tool) => tool.errors.includes(errorCode)).map((tool) => tool.name);
    const others = users.filter((name) => !sessionTools.includes(name));
    const who =
      users.length === tools.length
        ? 'all'
        : sessionTools.every((name) => users.includes(name)) && sessionTools.length > 1
          ? ['every tool that takes a sessionId', ...others.map(code)].join(', ')
          : users.map(code).join(', ') || '—';
    return [code(errorCode), ERROR_WHEN[errorCode], who];
  });
  return [
    "<!-- Generated by scripts/readme-tables.mjs from ERROR_CODES, BROWSER_ERROR_REASONS and the tools' error lists; run pnpm readme. -->",
    '',
    table(['Code', 'When', 'Tools'], rows),
    '',
    "Every `BROWSER_ERROR` carries `details.reason`, one of this closed set, so an agent can branch on it. When the session's page did not let go of a cancelled or timed-out call, `details.pageReplaced` is true: the session has a fresh blank page in the same context (cookies and storage kept).",
    '',
    table(
      ['`details.reason`', 'When'],
      reasons.map((reason) => [code(reason), REASON_WHEN[reason]]),
    ),
  ].join('\n');
}

/** The flags, from the same table the CLI parses with, so the docs cannot drift from the parser. */
function flagsSection(server) {
  const { FLAG_DEFINITIONS, META_FLAGS, flagUsage, defaultText, envVarName, camelCase } = server;
  const rows = [
    ...FLAG_DEFINITIONS.map((flag) => [code(flagUsage(flag)), code(envVarName(flag.name)), code(camelCase(flag.name)), defaultText(flag), flag.description]),
    ...META_FLAGS.map((meta) => [code(meta.usage), meta.env ? code(meta.env) : '—', '—', '', meta.description]),
    [`${code('--help')} (${code('-h')})`, '—', '—', '', 'Print the flags and exit'],
    [
      `${code('--version')} (${code('-v')})`,
      '—',
      '—',
      '',
      'Print the package name and version and exit (with --verbose: the runtime and the browser it would use)',
    ],
  ];
  return [
    '<!-- Generated by scripts/readme-tables.mjs from the flag definitions (packages/server-stdio/src/settings/table.ts); run pnpm readme. -->',
    '',
    table(['Flag', 'Environment variable', 'Config key', 'Default', 'Meaning'], rows),
    '',
    ...FLAG_NOTES.map((note) => `- ${note}`),
  ].join('\n');
}

/** How a flag's value is written in the config file (and read from the command line and the environment). */
function kindText(flag) {
  if (flag.kind === 'list' || flag.repeatable)
    return `array of strings (comma-separated in the environment)${flag.repeatable ? '; the flag may be repeated' : ''}`;
  if (flag.kind === 'enum') return `one of ${flag.choices.map((choice) => code(JSON.stringify(choice))).join(', ')}`;
  if (flag.kind === 'path') return 'string (a path; relative to the config file)';
  if (flag.kind !== 'integer') return flag.kind;
  return flag.max !== undefined ? `integer ${flag.min ?? 0}–${flag.max}` : flag.min !== undefined ? `integer ≥ ${flag.min}` : 'integer';
}

/** docs/configuration.md's table: each setting's three spellings and its type. */
function configKeysSection(server) {
  const { FLAG_DEFINITIONS, camelCase, envVarName } = server;
  const rows = FLAG_DEFINITIONS.map((flag) => [
    code(camelCase(flag.name)),
    code(envVarName(flag.name)),
    code(`--${flag.name}`),
    kindText(flag),
    [flag.httpOnly ? 'HTTP mode only.' : '', flag.secret ? 'Secret: never printed.' : ''].filter(Boolean).join(' '),
  ]);
  return [
    '<!-- Generated by scripts/readme-tables.mjs from the flag definitions; run pnpm readme. -->',
    '',
    table(['Config key', 'Environment variable', 'Flag', 'Type', 'Notes'], rows),
  ].join('\n');
}

/** docs/configuration.md's example: a config file that sets every key. */
function configExampleSection(server) {
  const { COMBINABLE_FLAGS, camelCase, exampleValue } = server;
  const example = Object.fromEntries(COMBINABLE_FLAGS.map((flag) => [camelCase(flag.name), exampleValue(flag)]));
  return [
    '<!-- Generated by scripts/readme-tables.mjs from the flag definitions; run pnpm readme. -->',
    '',
    '```json',
    JSON.stringify(example, null, 2),
    '```',
  ].join('\n');
}

function replaceSection(text, name, body, file) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) fail(`${path.relative(root, file)} has no ${start} … ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}

async function main() {
  const mode = process.argv[2];
  if (mode !== '--write' && mode !== '--check') fail('usage: node scripts/readme-tables.mjs --write | --check');
  for (const file of Object.values(dist)) if (!existsSync(file)) fail(`${path.relative(root, file)} is missing: run pnpm build first`);
  const [{ ERROR_CODES, BROWSER_ERROR_REASONS }, { allTools, capabilityTools = [], playwrightProfile }, server] = await Promise.all(
    [dist.core, dist.tools, dist.server].map((file) => import(pathToFileURL(file).href)),
  );
  const { describeTool } = server;
  const everyTool = [...allTools, ...capabilityTools];

  const files = [
    { file: readmePath, sections: { 'tools-list': toolsListSection(allTools, capabilityTools) } },
    {
      file: toolsDocPath,
      sections: {
        tools: toolsSection(everyTool, describeTool),
        errors: errorsSection(ERROR_CODES, everyTool, BROWSER_ERROR_REASONS),
        'playwright-tools': playwrightToolsSection(playwrightProfile().tools),
      },
    },
    {
      file: configDocPath,
      sections: { flags: flagsSection(server), 'config-keys': configKeysSection(server), 'config-example': configExampleSection(server) },
    },
  ];
  const stale = [];
  let changed = false;
  for (const { file, sections } of files) {
    const current = readFileSync(file, 'utf8');
    let next = current;
    for (const [name, body] of Object.entries(sections)) {
      next = replaceSection(next, name, body, file);
      if (replaceSection(current, name, body, file) !== current) stale.push(name);
    }
    if (mode === '--write' && next !== current) {
      writeFileSync(file, next);
      changed = true;
    }
  }
  if (mode === '--write') {
    process.stdout.write(changed ? 'README.md and docs/ updated\n' : 'README.md and docs/ are up to date\n');
    return;
  }
  if (stale.length) {
    process.stderr.write(`readme-tables: README.md or docs/ is out of date (${stale.join(', ')}): run pnpm readme (node scripts/readme-tables.mjs --write)\n`);
    process.exit(1);
  }
  process.stdout.write('README.md and docs/ are up to date\n');
}

await main();
