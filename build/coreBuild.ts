import type { Plugin } from 'vite';

const NO_SCHEMAS = '\0innkeeper-conf-without-schemas:';
const SCHEMA_MODULES = new Set(['ajv/dist/2020.js', 'ajv-formats']);

/**
 * The settings store (`conf`) imports a JSON-schema validator (Ajv 2020 and its formats) at load, for the
 * `schema` option the core never passes (loading them took about 50 ms on the benchmark machine). For `conf` only, the validator is replaced by
 * one that refuses to be built, so that a schema added one day fails loudly at once instead of being ignored.
 * (Fastify's own validator is a different import and is untouched.)
 */
export function confWithoutSchemasPlugin(): Plugin {
  return {
    name: 'innkeeper-conf-without-schemas',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer && /[\\/]node_modules[\\/]conf[\\/]/.test(importer) && SCHEMA_MODULES.has(source)) {
        return NO_SCHEMAS + source;
      }
      return null;
    },
    load(id) {
      if (!id.startsWith(NO_SCHEMAS)) return null;
      return `const refuse = () => {
  throw new Error("Innkeeper's build leaves out conf's schema validation (build/coreBuild.ts): settings are checked in code.");
};
export class Ajv2020 { constructor() { refuse(); } }
export default { default: refuse };`;
    },
  };
}

/**
 * The core's built JavaScript in ASCII only: every other character written as its `\uXXXX` escape. V8 keeps each
 * loaded module's source for as long as the process runs, one byte a character when every character fits in one
 * (Latin-1), two otherwise: one typographic quote or dash in the owner-facing words (`’`, `—`, `…`) made each of the
 * core's 3.7 MB of chunks take twice its size (bench:idle, "The core at rest": the core's external memory
 * 11.5 → 8.6 MiB, its RSS ~3 MiB lower). In strings, template literals, regular expressions and identifiers the escape
 * means the same character; in comments it changes nothing. A tagged template's raw text would change, so one with
 * such a character fails the build instead.
 */
export function asciiOnly(code: string): string {
  return code.replace(/(\\*)(\P{ASCII})/gu, (_match, slashes: string, char: string) => {
    const escaped = [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join('');
    // An escaped character (`\é` in a string or a pattern) is the character itself: the escape takes its backslash's place.
    return (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + escaped;
  });
}

interface AstNode {
  type: string;
  start?: number;
  quasi?: { quasis: { value: { raw: string } }[] };
  [key: string]: unknown;
}

/** Tagged templates whose raw text has a character outside ASCII (escaping would change what the tag reads). */
function taggedNonAscii(node: unknown, found: number[] = []): number[] {
  if (!node || typeof node !== 'object') return found;
  if (Array.isArray(node)) {
    for (const child of node) taggedNonAscii(child, found);
    return found;
  }
  const n = node as AstNode;
  if (n.type === 'TaggedTemplateExpression' && n.quasi?.quasis.some((q) => /\P{ASCII}/u.test(q.value.raw)))
    found.push(n.start ?? -1);
  for (const value of Object.values(n)) if (value && typeof value === 'object') taggedNonAscii(value, found);
  return found;
}

export function asciiOnlyPlugin(): Plugin {
  return {
    name: 'innkeeper-ascii-only',
    // After every chunk is rendered: Vite's own last pass (esbuild, for the build's target) writes escapes back as
    // the characters.
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !/\P{ASCII}/u.test(chunk.code)) continue;
        const tagged = taggedNonAscii(this.parse(chunk.code));
        if (tagged.length)
          this.error(`${chunk.fileName}: a tagged template has a character outside ASCII (at ${tagged.join(', ')})`);
        chunk.code = asciiOnly(chunk.code);
      }
    },
  };
}
