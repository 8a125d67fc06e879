/**
 * @module Type declaration of `anafanafo` (the width tables shields.io uses), for tests that compare against it.
 */
declare module 'anafanafo' {
  export type AnafanafoFont = '10px Verdana' | 'bold 10px Verdana' | '11px Verdana' | 'bold 11px Helvetica';
  export default function measure(text: string, options: { font: AnafanafoFont; guess?: boolean }): number;
}
