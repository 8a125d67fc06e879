/** @module The versioned prefix every route of the daemon is served under. */
export const apiPrefix = '/api/v1';
