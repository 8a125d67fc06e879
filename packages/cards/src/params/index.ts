/**
 * @module Parameter builders and query parsing shared by every endpoint.
 */
export {
  customParam,
  describeAllowed,
  flag,
  number,
  oneOf,
  type Param,
  type ParamDoc,
  type ParamKind,
  requiredText,
  shown,
  splitList,
  text,
} from './param.js';
export {
  type ParamTable,
  type ParamValues,
  parseQuery,
  type QueryParseResult,
  querySchema,
} from './query.js';
export { themeParam } from './theme.js';
