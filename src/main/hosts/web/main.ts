import { enableCompileCache } from 'node:module';
import { applyEngineFlags } from '../engineFlags';
import { compileCacheDir, ownCompileCacheDir } from './compileCache';

// `npm run web`: browser mode. V8's compiled code of the app and its modules is kept on disk (Node's compile cache,
// keyed by each file's contents), so a start after the first compiles almost nothing: loading the modules is most of
// the core's start (bench/RESULTS.md, "Core start and memory"). It is kept in the user's own cache folder, owner-only
// (never the shared temp folder, where another account could plant code): one that cannot be trusted is not used,
// and Node just compiles as before. Everything else is imported after, so that it is cached too.
applyEngineFlags();
const cache = ownCompileCacheDir(compileCacheDir());
if ('dir' in cache) enableCompileCache(cache.dir);
else console.error(`Node's compile cache is not used: ${cache.refused}`);
try {
  const { runWebApp } = await import('./webApp');
  await runWebApp({
    packageJson: new URL('../../package.json', import.meta.url),
    rendererDir: new URL('../renderer', import.meta.url),
  });
} catch (error) {
  console.error(`Innkeeper could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
