/**
 * @module CSS shared by animated cards: honour the reader's reduced-motion preference.
 */

/**
 * Stops every animation for readers who asked for less motion. Cards are built so that the
 * un-animated state is the readable final frame, so stopping animations never hides text.
 */
export const reducedMotionCss = '@media (prefers-reduced-motion:reduce){*{animation:none!important}}';
