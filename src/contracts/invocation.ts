import type * as v from 'valibot';
import {
  bodyDeclShape,
  invocationExampleShape,
  runtimeDeclShape,
  runtimeInvocationShape,
  runtimeToolRegistryShape,
  runtimeToolShape,
  targetDeclShape,
  targetKindShape,
} from './invocation-shape.js';
import type { JsonObject } from './json.js';
import { schemaAgrees, type SameType } from './same-type.js';

/**
 * How a consumer realizes an authored target (§executor-invocation). `script` (the later 1.x
 * kind: "script; never a command or a directory") is a program file the executor runs: a
 * local or `file://` path, never a directory (docs/host.md).
 */
export type TargetKind = 'literal' | 'path' | 'resource' | 'script';
/** 1.x's name for {@link TargetKind}. */
export type RuntimeTargetKind = TargetKind;
schemaAgrees<SameType<v.InferOutput<typeof targetKindShape>, TargetKind>>();
/** Schema of {@link TargetKind}. */
export const TargetKindSchema: v.GenericSchema<TargetKind> = targetKindShape;

/** The body bucket of an invocation. */
export interface BodyDecl {
  role: string;
  required?: boolean;
}
schemaAgrees<SameType<v.InferOutput<typeof bodyDeclShape>, BodyDecl>>();
/** Schema of {@link BodyDecl}. */
export const BodyDeclSchema: v.GenericSchema<BodyDecl> = bodyDeclShape;

/** The target bucket of an invocation; omitted when the runtime accepts no target. */
export interface TargetDecl {
  role: string;
  required?: boolean;
  kind: TargetKind;
  directory?: 'cwd';
}
schemaAgrees<SameType<v.InferOutput<typeof targetDeclShape>, TargetDecl>>();
/** Schema of {@link TargetDecl}. */
export const TargetDeclSchema: v.GenericSchema<TargetDecl> = targetDeclShape;

/** The executable witness of an invocation: a one-line body, a target, or both. */
export interface InvocationExample {
  body?: string;
  target?: string;
}
schemaAgrees<SameType<v.InferOutput<typeof invocationExampleShape>, InvocationExample>>();
/** Schema of {@link InvocationExample}. */
export const InvocationExampleSchema: v.GenericSchema<InvocationExample> = invocationExampleShape;

/**
 * One runtime's invocation contract (§executor-invocation). Exactly one of `example`,
 * `signature` or `inputSchema` (the later 1.x alternative: a JSON Schema of the body, carried
 * as written) is present.
 */
export interface RuntimeInvocation {
  body: BodyDecl;
  target?: TargetDecl;
  exclusive?: boolean;
  example?: InvocationExample;
  signature?: string;
  inputSchema?: JsonObject;
}
/** 1.x's name for {@link RuntimeInvocation}, the type a 1.x service imports. */
export type RuntimeInvocationDecl = RuntimeInvocation;
schemaAgrees<SameType<v.InferOutput<typeof runtimeInvocationShape>, RuntimeInvocation>>();
/**
 * The structural shape of one runtime's invocation contract. The cross-field rules (buckets,
 * exclusivity, example satisfying its own buckets) are checked by discovery's declaration
 * validator on top of this shape.
 */
export const RuntimeInvocationSchema: v.GenericSchema<RuntimeInvocation> = runtimeInvocationShape;

/** A runtime declaration as a package publishes it (§executor-runtime-declaration). */
export interface RuntimeDecl {
  name: string;
  glyph?: string;
  summary: string;
  invocation: RuntimeInvocation;
  details?: string;
  /** Where the consumer materializes this runtime's generated documents: an absolute pathname such as `/tools` (later 1.x). */
  resourcesPath?: string;
}
schemaAgrees<SameType<v.InferOutput<typeof runtimeDeclShape>, RuntimeDecl>>();
/** Schema of {@link RuntimeDecl}. */
export const RuntimeDeclSchema: v.GenericSchema<RuntimeDecl> = runtimeDeclShape;

/** The immutable tool snapshot a family runtime returns from `toolRegistry()`. */
export interface RuntimeToolRegistry {
  readonly tools: readonly {
    readonly target: string;
    readonly summary: string;
    readonly invocation: RuntimeInvocation;
    readonly details?: string;
  }[];
}
/** Schema of one exact tool of a finite family (§executor-tool-registry). */
export const RuntimeToolSchema: v.GenericSchema<RuntimeToolRegistry['tools'][number]> = runtimeToolShape;
/** Schema of {@link RuntimeToolRegistry}. */
export const RuntimeToolRegistrySchema: v.GenericSchema<RuntimeToolRegistry> = runtimeToolRegistryShape;
