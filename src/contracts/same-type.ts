/**
 * `true` only when A and B are the same type. Mutual assignability is too loose for this:
 * the generic-function form also tells `any`, optionality and readonly apart.
 */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * Compile-time proof that a schema and the interface written beside it agree:
 * `schemaAgrees<SameType<v.InferOutput<typeof schema>, Interface>>()` does not compile when
 * they drift. The interfaces are what the package ships in its declarations, because
 * valibot's inferred types cost a consumer's compiler far more (and once too deep).
 */
export function schemaAgrees<Proof extends true>(proof?: Proof): void {
  void proof;
}

/**
 * `true` when A and B are assignable both ways: the proof for a loose object schema, whose
 * inferred type is an intersection with an index signature rather than one interface.
 */
export type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
