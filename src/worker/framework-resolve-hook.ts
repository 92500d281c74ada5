/**
 * A module resolve hook (`module.registerHooks`, or `module.register` where that is missing)
 * that resolves `@plurnk/plurnk-execs` and its subpaths to this very copy of the package, as
 * a self-reference from inside it: one framework per host, wherever the leaf lives. A leaf
 * installed by symlink (`npm install ../my-leaf`) sits outside the service's node_modules and
 * could not find the framework at all without it.
 */

const NAME = '@plurnk/plurnk-execs';
// A module inside this package: a bare specifier naming the package resolves from here to
// the package itself (Node's self-reference through `exports`).
const SELF = import.meta.url;

interface ResolveContext {
  parentURL?: string | undefined;
}

/** Redirects the framework's specifiers; every other specifier resolves as it would. */
export function resolve<C extends ResolveContext, R>(
  specifier: string,
  context: C,
  nextResolve: (specifier: string, context: C) => R,
): R {
  if (specifier === NAME || specifier.startsWith(`${NAME}/`))
    return nextResolve(specifier, { ...context, parentURL: SELF });
  return nextResolve(specifier, context);
}
