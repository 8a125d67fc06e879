/**
 * @module Type declaration of `anafanafo` (Verdana/Helvetica width tables used by shields.io).
 */
declare module 'anafanafo' {
  export type AnafanafoFont = '10px Verdana' | 'bold 10px Verdana' | '11px Verdana' | 'bold 11px Helvetica';
  export default function measure(text: string, options: { font: AnafanafoFont; guess?: boolean }): number;
}
