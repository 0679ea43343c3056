import { enableCompileCache } from 'node:module';

// `npm run web`: browser mode. V8's compiled code of the app and its modules is kept on disk (Node's compile cache,
// in the temp folder, keyed by each file's contents), so a start after the first compiles almost nothing: loading
// the modules is most of the core's start (bench/RESULTS.md, "Core start and memory"). Without a writable cache
// folder Node just compiles as before. Everything else is imported after, so that it is cached too.
enableCompileCache();
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
