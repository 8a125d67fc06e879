/**
 * The language of a file from its name, for the editor's highlighting and the diff's: a small set
 * of CodeMirror language packages, each a dynamic import so it is fetched the first time a file
 * of that kind is shown (the first page load carries none of them). An unknown name is plain text.
 */
import type { LanguageSupport } from '@codemirror/language';

type Loader = () => Promise<LanguageSupport>;

const javascript = (options: { jsx?: boolean; typescript?: boolean }) => () =>
  import('@codemirror/lang-javascript').then((module) => module.javascript(options));
const python = () => import('@codemirror/lang-python').then((module) => module.python());
const json = () => import('@codemirror/lang-json').then((module) => module.json());
const css = () => import('@codemirror/lang-css').then((module) => module.css());
const html = () => import('@codemirror/lang-html').then((module) => module.html());
const markdown = () => import('@codemirror/lang-markdown').then((module) => module.markdown());
const yaml = () => import('@codemirror/lang-yaml').then((module) => module.yaml());
const rust = () => import('@codemirror/lang-rust').then((module) => module.rust());
const go = () => import('@codemirror/lang-go').then((module) => module.go());

const byExtension: Readonly<Record<string, Loader>> = {
  js: javascript({}),
  mjs: javascript({}),
  cjs: javascript({}),
  jsx: javascript({ jsx: true }),
  ts: javascript({ typescript: true }),
  mts: javascript({ typescript: true }),
  cts: javascript({ typescript: true }),
  tsx: javascript({ jsx: true, typescript: true }),
  py: python,
  pyi: python,
  json: json,
  jsonc: json,
  css: css,
  html: html,
  htm: html,
  md: markdown,
  markdown: markdown,
  yml: yaml,
  yaml: yaml,
  rs: rust,
  go: go,
};

/** `path`'s extension, lower-cased ('' without one; a leading dot names a hidden file, not an extension). */
function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The loader of `path`'s language, or undefined for plain text. */
export function languageLoader(path: string): Loader | undefined {
  const extension = extensionOf(path);
  return Object.hasOwn(byExtension, extension) ? byExtension[extension] : undefined;
}

/** What the editor's status line calls the language of `path`. */
export function languageName(path: string): string {
  return languageLoader(path) ? extensionOf(path) : 'plain text';
}
