// The error every bad flag or value becomes; its own module so option parsers can share it without importing each other.

/** A bad flag or value: the CLI prints the message as one line on stderr and exits with status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
