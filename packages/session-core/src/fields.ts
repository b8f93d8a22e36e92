// Two small helpers every package uses on values it passes on: an object without its undefined fields, a text cut short.

/** The object without its undefined fields, so that they neither override defaults nor reach an option that refuses them. */
export function defined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** `text` in at most `max` characters: a longer one keeps its start and ends with an ellipsis. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
