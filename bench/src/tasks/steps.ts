// The scripted agent's vocabulary: what it asks a browser to do, and what it reads back from a find, whichever server carries it out.

/** An element named as a model could name it: a ref from an earlier answer (e12) or a selector it writes from the task's words. */
export type Target = string;

export interface FormField {
  target: Target;
  /** The field's label, which @playwright/mcp's browser_fill_form asks for. */
  name: string;
  type: 'textbox' | 'checkbox' | 'combobox';
  value: string | boolean;
}

export type Step =
  | { tool: 'navigate'; url: string }
  | { tool: 'find'; text: string }
  | { tool: 'findRegex'; regex: string }
  | { tool: 'click'; target: Target }
  | { tool: 'type'; target: Target; text: string; submit?: boolean }
  | { tool: 'fill'; fields: FormField[] };

/** One line of a find answer: its ref if it has one, its text, and where it links to (absolute) if the server said. */
export interface Found {
  ref?: string;
  text: string;
  url?: string;
}

export const isRef = (target: Target) => /^e\d+$/.test(target);

/** Reads a find answer: sessionwright's JSON `{matches: [{ref, line, url?}]}`, or @playwright/mcp's YAML lines with `[ref=…]` and `/url:`. */
export function parseFind(text: string, base: string): Found[] {
  const json = text.trimStart().startsWith('{') ? (JSON.parse(text) as { matches?: { ref?: string; line: string; url?: string }[] }) : undefined;
  if (json?.matches) return json.matches.map((m) => ({ ref: m.ref, text: m.line, ...(m.url ? { url: new URL(m.url, base).href } : {}) }));
  const found: Found[] = [];
  for (const line of text.split('\n')) {
    const link = /^\s*- \/url: (.+)$/.exec(line);
    const last = found.at(-1);
    if (link && last) last.url = new URL(link[1] ?? '', base).href;
    else if (/^\s*- /.test(line)) found.push({ ref: /\[ref=(e\d+)\]/.exec(line)?.[1], text: line.trim().slice(2) });
  }
  return found;
}
