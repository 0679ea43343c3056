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
