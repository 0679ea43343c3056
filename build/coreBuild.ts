import type { Plugin } from 'vite';

/**
 * Two changes to the core's bundle that shorten its start (bench/RESULTS.md, "Core start and memory"), neither
 * changing what it does.
 */

const HTTP_IMPORT = /^import\s+(?:(.+?)\s+from\s+)?["'](?:node:)?http["'];?[ \t]*$/gm;

/** `X` / `* as X` / `{ a, b as c }` / `X, { a }` → the names bound by `const … = <source>`. */
function bindings(clause: string, source: string): string {
  const out: string[] = [];
  const named = /\{([^}]*)\}/.exec(clause);
  const head = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,\s*$/, '')
    .trim();
  if (head) out.push(`const ${head.replace(/^\*\s+as\s+/, '')} = ${source};`);
  if (named) {
    const parts = named[1]!
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => p.replace(/^(\S+)\s+as\s+(\S+)$/, '$1: $2'));
    if (parts.length) out.push(`const { ${parts.join(', ')} } = ${source};`);
  }
  return out.join(' ');
}

/**
 * `node:http` taken with `require` instead of an ES import. Node builds an ES module facade for a built-in module
 * the first time one is imported, reading every export — and `node:http`'s WebSocket, CloseEvent and MessageEvent
 * exports load Node's whole fetch implementation (undici) when read: about 45 ms of every start, for classes the
 * core never uses. `require` returns the same module object without reading them.
 */
export function requireHttp(code: string): string | null {
  if (!HTTP_IMPORT.test(code)) return null;
  HTTP_IMPORT.lastIndex = 0;
  let first = true;
  const replaced = code.replace(HTTP_IMPORT, (_line, clause: string | undefined) => {
    const load = first ? 'const __innkeeperHttp = __innkeeperRequire(import.meta.url)("node:http");' : '';
    first = false;
    return `${load} ${clause ? bindings(clause, '__innkeeperHttp') : ''}`.trim();
  });
  return `import { createRequire as __innkeeperRequire } from "node:module";\n${replaced}`;
}

export function requireHttpPlugin(): Plugin {
  return {
    name: 'innkeeper-require-http',
    renderChunk(code) {
      const changed = requireHttp(code);
      return changed === null ? null : { code: changed, map: null };
    },
  };
}

const NO_SCHEMAS = '\0innkeeper-conf-without-schemas:';
const SCHEMA_MODULES = new Set(['ajv/dist/2020.js', 'ajv-formats']);

/**
 * The settings store (`conf`) imports a JSON-schema validator (Ajv 2020 and its formats) at load, for the
 * `schema` option the core never passes: about 40 ms of every start. For `conf` only, the validator is replaced by
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
