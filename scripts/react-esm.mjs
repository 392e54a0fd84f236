// React ships as CommonJS. esbuild gives every ES module that imports it its own `__toESM` wrapper:
// a fresh object with one getter per export (react has 44), built when the module is evaluated —
// ~130 wrappers before warden's first frame (~5 ms, measured), and every hook call afterwards goes
// through a getter. Here `react` and `react/jsx-runtime`, imported from ES modules, resolve to one
// ES module each that wraps React once and re-exports its members as plain bindings. CommonJS
// `require('react')` (react-reconciler's) is left alone; it gets the same module object.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ENTRIES = { react: 'react', 'react/jsx-runtime': 'react/jsx-runtime' };
const NAMESPACE = 'react-esm';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** An esbuild plugin: ES imports of React read one shared wrapper (see the file's comment). */
export function reactEsm(root) {
  const require = createRequire(join(root, 'package.json'));
  return {
    name: 'react-esm',
    setup(build) {
      build.onResolve({ filter: /^react(\/jsx-runtime)?$/ }, (args) => {
        if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
        return { path: args.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const file = require.resolve(ENTRIES[args.path]);
        const names = Object.keys(productionExports(require, file)).filter((name) => name !== 'default');
        const bad = names.filter((name) => !IDENTIFIER.test(name));
        if (bad.length > 0)
          return {
            errors: [{ text: `${args.path} exports ${bad.join(', ')}: update scripts/react-esm.mjs` }],
          };
        const contents = [
          `import wrapped from ${JSON.stringify(file)};`,
          'export default wrapped;',
          `export const { ${names.join(', ')} } = wrapped;`,
        ].join('\n');
        return { contents, loader: 'js', resolveDir: root };
      });
    },
  };
}

/** The members of the production build (the one the bundle gets: NODE_ENV is defined as production). */
function productionExports(require, file) {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return require(file);
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}
