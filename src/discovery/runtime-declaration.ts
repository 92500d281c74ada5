import type { RuntimeDecl } from '../contracts/invocation.js';
import { parseOneX } from './one-x-assert.js';
import { toOneXInvocation } from './runtime-invocation.js';
import { RuntimeTag } from './runtime-tag.js';
import { DeclarationSchema, normalizeDeclaration } from './validate-declaration.js';

/**
 * 1.x's declaration validator, as a 1.x service imports it: `RuntimeDeclaration.assert(value,
 * owner)` runs discovery's own declaration rules (`validateRuntimeDecl`'s schema) and returns
 * `{ name, summary, invocation, glyph?, details?, resourcesPath? }`, or throws
 * `PlurnkExecsError('invalid-declaration')` worded as 1.x words it: `runtime declaration
 * invalid: <owner> <detail>`, `… <owner> '<name>' invocation…` for the invocation, and
 * RuntimeTag's `exec runtime declaration invalid: …` for the name.
 */
export class RuntimeDeclaration {
  /** Validates one runtime declaration for `owner` (the package that declares it). */
  static assert(value: unknown, owner: string): RuntimeDecl {
    const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
    const describeName = () => {
      try {
        RuntimeTag.assert(name, owner);
        return `runtime declaration invalid: ${owner} name is invalid`;
      } catch (error) {
        return (error as Error).message;
      }
    };
    const who = { owner, runtime: typeof name === 'string' ? name : undefined };
    const decl = normalizeDeclaration(
      parseOneX(DeclarationSchema, value, 'declaration', who, 'invalid-declaration', describeName),
    );
    return Object.freeze({ ...decl, invocation: toOneXInvocation(decl.invocation) });
  }
}
Object.freeze(RuntimeDeclaration);
