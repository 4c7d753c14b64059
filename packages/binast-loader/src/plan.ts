/** When a script runs relative to the document and its siblings, as the HTML spec defines for plain scripts. */
export type ExecutionMode = 'blocking' | 'defer' | 'async';

export interface ScriptPlan {
  /** `type="binast-module"`: executed as an ES module (always deferred unless `async`). */
  module: boolean;
  mode: ExecutionMode;
}

/**
 * The part of an HTMLScriptElement the plan depends on, so the rule is testable without a DOM (and the Worker's
 * HTMLRewriter elements fit it too). Whether it is `async` is read from the attribute, not the IDL property: once
 * the parser has prepared a script of a type it does not run, the HTML spec sets its "force async" flag, so `async`
 * reads true for every opt-in script an async loader finds already parsed.
 */
export interface ScriptAttributes {
  type: string;
  src: string;
  defer: boolean;
  hasAttribute(name: 'async'): boolean;
}

/** Markup that opts a script in: the browser ignores unknown types, so these never run without the loader. */
const classicType = 'binast';
const moduleType = 'binast-module';

/**
 * Decides how an opted-in script executes, or null when the element is not ours (other type, or no `src`: inline
 * BinaryAST is not a thing). Scripts found after parsing finished behave like dynamically inserted ones: async.
 * One inserted by script while the page parses, without the attribute, is ordered with the parser's (the browser
 * would run it async): its element cannot tell the two apart once parsed.
 */
export function planScript(script: ScriptAttributes, parsingDone: boolean): ScriptPlan | null {
  const type = script.type.trim().toLowerCase();
  if ((type !== classicType && type !== moduleType) || !script.src) return null;
  const module = type === moduleType;
  // Module scripts share the deferred list with `defer` classic scripts (HTML "list of scripts that will execute
  // when the document has finished parsing"); `defer` on a module is ignored, as in browsers.
  const mode = parsingDone || script.hasAttribute('async') ? 'async' : module || script.defer ? 'defer' : 'blocking';
  return { module, mode };
}
