/**
 * @module Badge drawing with shields.io geometry (same widths as badge-maker for flat,
 * flat-square and for-the-badge), plus optional CSS animations.
 */
import { type BrandIcon, placeIcon } from '../brands/brand-icon.js';
import { svgDocument } from '../svg/document.js';
import { escapeXml, stripForbiddenXmlChars } from '../svg/escape.js';
import { fontFamily, widthInFont } from '../svg/measure.js';
import { reducedMotionCss } from '../svg/motion.js';

export const badgeStyles = ['flat', 'flat-square', 'for-the-badge'] as const;
export type BadgeStyle = (typeof badgeStyles)[number];

export const badgeAnimations = ['none', 'shimmer', 'pulse', 'glow', 'bounce'] as const;
type BadgeAnimation = (typeof badgeAnimations)[number];

interface BadgeInput {
  label: string;
  message: string;
  /** Message background, `#rgb` or `#rrggbb`. */
  color: string;
  /** Label background; default shields' `#555`. */
  labelColor?: string;
  style: BadgeStyle;
  animation: BadgeAnimation;
  /** A 14 px logo before the label (shields' `logo`), in `color`. */
  logo?: { icon: BrandIcon; color: string };
}

/** shields.io's logo geometry: 14 px, 3 px before the label text. */
const logoSize = 14;
const logoGap = 3;

const defaultLabelColor = '#555';

/** Perceived brightness 0..1, the formula shields.io uses to pick dark or light text. */
function brightness(hex: string): number {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  const value = Number.parseInt(full, 16);
  const r = (value >> 16) & 255;
  const g = (value >> 8) & 255;
  const b = value & 255;
  return (r * 299 + g * 587 + b * 114) / 255_000;
}

function textColorOn(background: string): { fill: string; shadow: string } {
  return brightness(background) > 0.69
    ? { fill: '#333', shadow: '#ccc' }
    : { fill: '#fff', shadow: '#010101' };
}

/** Truncates then bumps to an odd number, like shields, so text centres on the pixel grid. */
function preferredWidth(text: string): number {
  const width = widthInFont(text, '11px Verdana') | 0;
  return width % 2 === 0 ? width + 1 : width;
}

interface Layout {
  width: number;
  height: number;
  leftWidth: number;
  rightWidth: number;
  label: string;
  message: string;
  /** Centre x, text width (both unscaled) and baseline (scaled by 10) of each text. */
  labelText?: { x: number; width: number };
  messageText?: { x: number; width: number };
  baseline: number;
}

function shieldsLayout(label: string, message: string): Layout {
  const padding = 5;
  const labelWidth = label ? preferredWidth(label) : 0;
  const leftWidth = label ? labelWidth + 2 * padding : 0;
  const messageWidth = preferredWidth(message);
  const rightWidth = messageWidth + 2 * padding;
  // Same offsets as badge-maker: the message starts 1 px into the label when both exist.
  const messageMargin = leftWidth - (message ? 1 : 0) + (label ? 0 : 1);
  return {
    width: leftWidth + rightWidth,
    height: 20,
    leftWidth,
    rightWidth,
    label,
    message,
    labelText: label ? { x: 1 + 0.5 * labelWidth + padding, width: labelWidth } : undefined,
    messageText: message
      ? { x: messageMargin + 0.5 * messageWidth + padding, width: messageWidth }
      : undefined,
    baseline: 140,
  };
}

/** for-the-badge: uppercase, 10 px Verdana (bold message), 1.25 px letter spacing, 12 px margins. */
function forTheBadgeLayout(rawLabel: string, rawMessage: string): Layout {
  const margin = 12;
  const spacing = 1.25;
  const label = rawLabel.toUpperCase();
  const message = rawMessage.toUpperCase();
  const labelWidth = label ? (widthInFont(label, '10px Verdana') | 0) + spacing * label.length : 0;
  const messageWidth = message
    ? (widthInFont(message, 'bold 10px Verdana') | 0) + spacing * message.length
    : 0;
  const leftWidth = label ? 2 * margin + labelWidth : 0;
  const rightWidth = 2 * margin + messageWidth;
  return {
    width: leftWidth + rightWidth,
    height: 28,
    leftWidth,
    rightWidth,
    label,
    message,
    labelText: label ? { x: margin + 0.5 * labelWidth, width: labelWidth } : undefined,
    messageText: message ? { x: leftWidth + margin + 0.5 * messageWidth, width: messageWidth } : undefined,
    baseline: 175,
  };
}

/**
 * Makes room for a logo on the label side: the label text moves right, or, without a label,
 * the logo gets a label-coloured side of its own.
 */
function withLogoSpace(layout: Layout, margin: number): Layout {
  const extra = layout.label ? logoSize + logoGap : logoSize + 2 * margin;
  const shift = (text?: { x: number; width: number }) => text && { ...text, x: text.x + extra };
  return {
    ...layout,
    width: layout.width + extra,
    leftWidth: layout.leftWidth + extra,
    labelText: shift(layout.labelText),
    messageText: shift(layout.messageText),
  };
}

function textElement(
  content: string,
  place: { x: number; width: number },
  baseline: number,
  background: string,
  options: { shadow: boolean; bold: boolean; className: string },
): string {
  const { fill, shadow } = textColorOn(background);
  const x = Math.round(place.x * 1000) / 100;
  const length = Math.round(place.width * 1000) / 100;
  const weight = options.bold ? ' font-weight="bold"' : '';
  const fillAttr = fill === '#fff' ? '' : ` fill="${fill}"`;
  const escaped = escapeXml(content);
  const shadowText = options.shadow
    ? `<text aria-hidden="true" x="${x}" y="${baseline + 10}" fill="${shadow}" fill-opacity=".3" transform="scale(.1)" textLength="${length}"${weight}>${escaped}</text>`
    : '';
  return `<g class="${options.className}">${shadowText}<text x="${x}" y="${baseline}" transform="scale(.1)" textLength="${length}"${fillAttr}${weight}>${escaped}</text></g>`;
}

/** CSS per animation; the un-animated state is always the plain, fully readable badge. */
function animationCss(animation: BadgeAnimation, width: number): string {
  switch (animation) {
    case 'none':
      return '';
    case 'shimmer':
      return `.shine{animation:shine 2.5s ease-in-out infinite}@keyframes shine{0%{transform:translateX(-60px)}60%,100%{transform:translateX(${width + 60}px)}}${reducedMotionCss}`;
    case 'pulse':
      return `.badge{animation:pulse 2s ease-in-out infinite}@keyframes pulse{50%{opacity:.72}}${reducedMotionCss}`;
    case 'glow':
      return `.glow{opacity:0;animation:glow 2s ease-in-out infinite}@keyframes glow{50%{opacity:.28}}${reducedMotionCss}`;
    case 'bounce':
      return `.t{animation:bounce 1.6s ease-in-out infinite}@keyframes bounce{0%,60%,100%{transform:translateY(0)}30%{transform:translateY(-2px)}}${reducedMotionCss}`;
  }
}

function animationLayer(input: BadgeInput, layout: Layout): string {
  if (input.animation === 'shimmer') {
    return `<linearGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset=".5" stop-color="#fff" stop-opacity=".45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient><rect class="shine" x="-60" width="40" height="${layout.height}" fill="url(#g)"/>`;
  }
  if (input.animation === 'glow') {
    return `<rect class="glow" x="${layout.leftWidth}" width="${layout.rightWidth}" height="${layout.height}" fill="#fff"/>`;
  }
  return '';
}

/**
 * Renders a badge.
 *
 * @example renderBadge({ label: 'build', message: 'passing', color: '#4b0', style: 'flat', animation: 'none' })
 */
export function renderBadge(input: BadgeInput): string {
  const label = stripForbiddenXmlChars(input.label);
  const message = stripForbiddenXmlChars(input.message);
  const forTheBadge = input.style === 'for-the-badge';
  const plainLayout = forTheBadge ? forTheBadgeLayout(label, message) : shieldsLayout(label, message);
  const logoMargin = forTheBadge ? 9 : 5;
  const layout = input.logo ? withLogoSpace(plainLayout, logoMargin) : plainLayout;
  const { width, height, leftWidth, rightWidth } = layout;
  const labelColor = input.labelColor ?? defaultLabelColor;
  const rounded = input.style === 'flat';
  const backgrounds = `${leftWidth ? `<rect width="${leftWidth}" height="${height}" fill="${labelColor}"/>` : ''}<rect x="${leftWidth}" width="${rightWidth}" height="${height}" fill="${input.color}"/>`;
  const gradient = rounded
    ? '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>'
    : '';
  const clip = rounded
    ? `<clipPath id="r"><rect width="${width}" height="${height}" rx="3" fill="#fff"/></clipPath>`
    : '';
  const overlay = rounded ? `<rect width="${width}" height="${height}" fill="url(#s)"/>` : '';
  const shapeAttrs = rounded ? ' clip-path="url(#r)"' : ' shape-rendering="crispEdges"';
  const textOptions = { shadow: rounded, className: 't' };
  const labelText = layout.labelText
    ? textElement(layout.label, layout.labelText, layout.baseline, labelColor, {
        ...textOptions,
        bold: false,
      })
    : '';
  const messageText = layout.messageText
    ? textElement(layout.message, layout.messageText, layout.baseline, input.color, {
        ...textOptions,
        bold: forTheBadge,
      })
    : '';
  const logo = input.logo
    ? placeIcon(input.logo.icon, logoMargin, (height - logoSize) / 2, logoSize, input.logo.color)
    : '';
  const body = `${gradient}${clip}<g class="badge"><g${shapeAttrs}>${backgrounds}${animationLayer(input, layout)}${overlay}</g>${logo}<g fill="#fff" text-anchor="middle" font-family="${fontFamily}" text-rendering="geometricPrecision" font-size="${forTheBadge ? 100 : 110}">${labelText}${messageText}</g></g>`;
  const title = label ? `${label}: ${message}` : message;
  return svgDocument({ width, height, title, css: animationCss(input.animation, width), body });
}
