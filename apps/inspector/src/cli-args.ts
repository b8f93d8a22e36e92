// The command-line arguments of the demo and inspector scripts, as pnpm hands them over.

/** `pnpm demo -- --out x` passes the `--` through; drop it, or node's parseArgs would read every flag after it as a positional. */
export function cliArgs(argv: readonly string[] = process.argv.slice(2)): string[] {
  return argv[0] === '--' ? argv.slice(1) : [...argv];
}
