import { describe, expect, it } from 'vitest';
import { confWithoutSchemasPlugin, requireHttp } from '../../build/coreBuild';

describe("the core bundle's start-time changes (build/coreBuild.ts)", () => {
  it('takes node:http with require in every form an ES import can have, and leaves other imports alone', () => {
    const code = [
      'import fs from "node:fs";',
      'import http from "http";',
      'import require$$0$4 from "node:http";',
      'import "node:http";',
      "import * as ns from 'node:http';",
      'import web, { createServer, STATUS_CODES as codes } from "node:http";',
      'import https from "node:https";',
      'import http2 from "node:http2";',
      'const text = "import x from \\"http\\"";',
      'export { http };',
    ].join('\n');
    const out = requireHttp(code)!;
    expect(out).not.toMatch(/^import .*["'](node:)?http["'];?$/m);
    expect(out).toContain('import fs from "node:fs";');
    expect(out).toContain('import https from "node:https";');
    expect(out).toContain('import http2 from "node:http2";');
    expect(out.match(/__innkeeperRequire\(import\.meta\.url\)\("node:http"\)/g)).toHaveLength(1);
    // What the rewritten chunk binds is what the imports bound: run it as an ES module.
    const body = out
      .replace(/^import .*$/gm, '')
      .replace('export { http };', () => 'return { http, require$$0$4, ns, web, createServer, codes };');
    const run = new Function('__innkeeperRequire', body.replace(/import\.meta\.url/g, '"file:///x.js"'));
    const http = process.getBuiltinModule('node:http');
    const bound = run(() => () => http) as Record<string, unknown>;
    expect(bound).toEqual({
      http,
      require$$0$4: http,
      ns: http,
      web: http,
      createServer: http.createServer,
      codes: http.STATUS_CODES,
    });
  });

  it('changes nothing in a chunk that does not import node:http', () => {
    expect(requireHttp('import fs from "node:fs";\nexport const a = 1;')).toBeNull();
  });

  it("replaces conf's schema validator only for conf, with one that refuses to be built", async () => {
    const plugin = confWithoutSchemasPlugin();
    const resolveId = plugin.resolveId as (source: string, importer?: string) => string | null;
    const load = plugin.load as (id: string) => string | null;
    const fromConf = '/app/node_modules/conf/dist/source/index.js';
    const id = resolveId('ajv/dist/2020.js', fromConf)!;
    expect(id).toMatch(/^\0/);
    expect(resolveId('ajv-formats', fromConf)).toMatch(/^\0/);
    // Fastify's validator and anything else keep the real modules.
    expect(resolveId('ajv-formats', '/app/node_modules/@fastify/ajv-compiler/index.js')).toBeNull();
    expect(resolveId('ajv/dist/2020.js', '/app/src/main/x.ts')).toBeNull();
    expect(resolveId('atomically', fromConf)).toBeNull();
    const stub = load(id)!;
    const url = `data:text/javascript,${encodeURIComponent(stub)}`;
    const mod = (await import(url)) as { Ajv2020: new () => unknown; default: { default: () => void } };
    expect(() => new mod.Ajv2020()).toThrow(/leaves out conf's schema validation/);
    expect(() => mod.default.default()).toThrow(/leaves out conf's schema validation/);
  });
});
