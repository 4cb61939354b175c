// Code mode's sandbox candidates compared (DESIGN.md, "Code mode: the sandbox"): QuickJS (quickjs-ng) in
// WebAssembly in-process against a `node --permission` child with an empty environment.
// Run: node scripts/code-sandbox-compare.mjs
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/core/package.json', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (b) => (b / 1024 / 1024).toFixed(1);

async function quickjs() {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const core = await import(require.resolve('quickjs-emscripten-core').replace(/index\.js$/, 'index.mjs'));
  const variant = (
    await import(require.resolve('@jitl/quickjs-ng-wasmfile-release-sync').replace(/index\.js$/, 'index.mjs'))
  ).default;
  const t1 = performance.now();
  const mod = await core.newQuickJSWASMModuleFromVariant(variant);
  const t2 = performance.now();
  const rss1 = process.memoryUsage().rss;
  const once = async (src) => {
    const rt = mod.newRuntime();
    rt.setMemoryLimit(32 << 20);
    rt.setMaxStackSize(128 << 10);
    const ctx = rt.newContext();
    const fn = ctx.newFunction('h', () => {
      const d = ctx.newPromise();
      Promise.resolve().then(() => {
        const s = ctx.newString('{"ok":true}');
        d.resolve(s);
        s.dispose();
        d.dispose();
      });
      return d.handle;
    });
    ctx.setProp(ctx.global, 'h', fn);
    fn.dispose();
    const r = ctx.evalCode(`(async () => { ${src} })()`);
    const p = r.value;
    for (;;) {
      rt.executePendingJobs();
      const st = ctx.getPromiseState(p);
      if (st.type !== 'pending') {
        (st.value ?? st.error).dispose();
        break;
      }
      await new Promise((res) => setImmediate(res));
    }
    const uh = rt.computeMemoryUsage();
    const usage = ctx.dump(uh);
    uh.dispose();
    p.dispose();
    ctx.dispose();
    rt.dispose();
    return usage.memory_used_size;
  };
  const t3 = performance.now();
  await once('return 1');
  const first = performance.now() - t3;
  const per = [];
  let heap = 0;
  for (let i = 0; i < 200; i++) {
    const s = performance.now();
    heap = await once('return 1');
    per.push(performance.now() - s);
  }
  const bridge = [];
  for (let i = 0; i < 50; i++) {
    const s = performance.now();
    await once('for (let i = 0; i < 100; i++) await h(); return 1');
    bridge.push((performance.now() - s) / 100);
  }
  return {
    importMs: t1 - t0,
    wasmLoadMs: t2 - t1,
    firstRunMs: first,
    perRunMs: median(per),
    perBridgeCallMs: median(bridge),
    rssMb: mb(rss1 - rss0),
    heapPerRunKb: (heap / 1024).toFixed(0),
  };
}

function child(code) {
  return new Promise((resolve, reject) => {
    const s = performance.now();
    const p = spawn(process.execPath, ['--permission', '-e', code], { env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.on('exit', () => resolve({ ms: performance.now() - s, out }));
    p.on('error', reject);
  });
}

async function nodeChild() {
  const runs = [];
  let rss = 0;
  for (let i = 0; i < 15; i++) {
    const { ms, out } = await child('console.log(JSON.stringify({ rss: process.memoryUsage().rss }))');
    runs.push(ms);
    rss = JSON.parse(out).rss;
  }
  const denied = await child(
    "try { require('fs').readFileSync('/etc/hostname'); console.log('read') } catch (e) { console.log(e.code) }",
  );
  const net = await child("require('net').connect(1, '127.0.0.1').on('error', (e) => console.log(e.code))");
  return { spawnAndRunMs: median(runs), childRssMb: mb(rss), fsRead: denied.out.trim(), netConnect: net.out.trim() };
}

console.log(
  JSON.stringify({ node: process.version, quickjs: await quickjs(), nodePermissionChild: await nodeChild() }, null, 1),
);
