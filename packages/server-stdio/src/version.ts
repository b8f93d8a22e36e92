// The package's name and version, read once from package.json at build time.
import packageJson from '../package.json' with { type: 'json' };

export const SERVER_NAME = 'sessionwright';
export const PACKAGE_NAME: string = packageJson.name;
export const VERSION: string = packageJson.version;
