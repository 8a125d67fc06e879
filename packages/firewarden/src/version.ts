/**
 * @module The product's version (from package.json) and the API version of its routes.
 */
import { createRequire } from 'node:module';

const manifest = createRequire(import.meta.url)('../package.json') as { version: string };

export const appVersion: string = manifest.version;
export const apiVersion = 'v1';
