/**
 * @module Public surface of the package (being built).
 */
export {};
