// dependency-cruiser reads TypeScript through the compiler's JavaScript API (to see `import type` and
// to read tsconfig.json). TypeScript 7, the project's compiler, no longer ships that API, and
// dependency-cruiser 17 accepts only TypeScript < 7: without one it would skip every .ts file and
// report nothing. Microsoft's companion package @typescript/typescript6 carries the TypeScript 6 API
// for such tools. Loaded before dependency-cruiser (node --import, or imported first), this hands that
// package to dependency-cruiser, and to nothing else, when it asks for 'typescript'.
import Module, { register } from 'node:module';

const cruiser = /[\\/]node_modules[\\/]dependency-cruiser[\\/]/;

// Its version check: a CommonJS require of typescript/package.json.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const redirected =
    request.startsWith('typescript/') && cruiser.test(parent?.filename ?? '')
      ? `@typescript/typescript6/${request.slice('typescript/'.length)}`
      : request;
  return resolveFilename.call(this, redirected, parent, ...rest);
};

// The compiler itself: an ES module import('typescript').
const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && /\\/node_modules\\/dependency-cruiser\\//.test(context.parentURL ?? ''))
    return next('@typescript/typescript6', context);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
