/** Rules as code (docs/rules.md): the fields, the checks of a document, its compilation and its application. Pure. */
export { METADATA_PREFIX, RULE_FIELDS, fieldKind, type FieldKind, type RuleSubject } from './fields';
export {
  MAX_DEPTH,
  MAX_RULES,
  OPS,
  describeError,
  validateRules,
  type Op,
  type RuleError,
  type Validated,
} from './validate';
export {
  NO_RULES,
  applyRules,
  compileRules,
  listsAfterActions,
  type CompiledRule,
  type CompiledRules,
  type ListAction,
  type RulesOutcome,
} from './compile';
export { ruleFieldCatalogue } from './catalogue';
export { diffRules, draftStatus, fourEyesRefusal } from './drafts';
