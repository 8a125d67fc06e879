/**
 * @module Public surface of readme-cards: the app factory, the endpoint engine and the drawing
 * helpers every card uses.
 */
export { type CreateAppOptions, createApp, defaultGithubApiUrl } from './app.js';
export { type DrawnCard, renderOnce } from './cards/render-memo.js';
export { badgeColors } from './endpoints/badge.js';
export { endpoints } from './endpoints/index.js';
export {
  type CachePolicy,
  cacheControlFor,
  errorCacheControl,
  noStoreCache,
  staticCardCache,
} from './http/cache-control.js';
export { CardError, type CardErrorOptions, type CardErrorStatus } from './http/card-error.js';
export {
  type CardBody,
  defineEndpoint,
  type Endpoint,
  type EndpointDefinition,
  type RenderContext,
} from './http/endpoint.js';
export { etagOf, matchesIfNoneMatch } from './http/etag.js';
export {
  type AnswerMemo,
  type AnswerMemoOptions,
  type CardAnswer,
  createAnswerMemo,
  createCardHandler,
  type MemoEntry,
} from './http/pipeline.js';
export type { CardLogger, CardServices, GithubSettings } from './http/services.js';
export * from './params/index.js';
export * from './store/index.js';
export { round, type SvgDocument, svgDocument } from './svg/document.js';
export { errorCard } from './svg/error-card.js';
export { escapeXml, stripForbiddenXmlChars } from './svg/escape.js';
export { cardFrame, contentTopWithTitle, type FrameOptions, framePadding, titleWidth } from './svg/frame.js';
export { fontFamily, type MeasureOptions, measureText, widthInFont } from './svg/measure.js';
export { reducedMotionCss } from './svg/motion.js';
export { type WrapOptions, wrapText } from './svg/wrap.js';
export * from './themes/index.js';
