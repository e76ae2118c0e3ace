/**
 * Where the service's public API lives under its base URL: the one prefix the contract's paths
 * (api/), the addresses the service writes into its answers (services/, operations/) and the
 * router share.
 */

/** The REST API's path under PUBLIC_BASE_URL. */
export const apiPrefix = "/api/public/v1"
