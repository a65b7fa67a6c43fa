// Generated from the server's OpenAPI document by `npm run client:types`; a test fails when it differs.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and search readiness (no key needed) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The server answers. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Health"];
                    };
                };
                /** @description The `Host` or `Origin` of the request is not one of this server (see ALLOWED_HOSTS, ALLOWED_ORIGINS). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The desktop app's self-update: running version, version available, state (no key needed)
         * @description The headless server (`npm start`) does not update itself and reports `off`. See docs/desktop.md.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Where the update stands. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["UpdateStatus"];
                        };
                    };
                };
                /** @description The `Host` or `Origin` of the request is not one of this server (see ALLOWED_HOSTS, ALLOWED_ORIGINS). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document (no key needed) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description The `Host` or `Origin` of the request is not one of this server (see ALLOWED_HOSTS, ALLOWED_ORIGINS). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/system": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Version, database size and disk space left
         * @description For the staff page. Any key of an organization on this server.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The figures. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["SystemInfo"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List, search or look up products by barcode
         * @description Without `q`: active products in id order, paged by `cursor`. With `q`: search, best match first, paged by `offset`; `limit` is capped at 250; 503 while the search index is still being built after a start. With `barcode` (extension): exact match on barcode or alias code, or the product of a scale label with `scaleLabel`. With `showOnScale` and `updatedSince` (extensions): the label-scale feed; `updatedSince` also serves soft-deleted rows, oldest change first.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Search text; enables `offset`. Word starts in `name` (typos tolerated when the words as typed find little; from 4 letters also parts inside compound words, listed after the other matches), whole words in `description` and `declarations`, exact `barcode`, alias code or `externalId`; accents optional. */
                    q?: string;
                    /** @description Page size, 1 to 5000; default 100. With `q` at most 250 apply: a larger value is served as 250 and `meta.limit` says so. */
                    limit?: number;
                    /** @description 0 to 10000, default 0; only with `q`. */
                    offset?: number | null;
                    /** @description Leave out products hidden in this store. */
                    store?: string;
                    /** @description Opaque cursor; only without `q`. */
                    cursor?: string;
                    /** @description Extension: exact lookup by barcode or barcode-alias code (case-insensitive). A code that matches none but is a scale label (EAN-13 such as 21IIIIIVVVVVC) finds the product of its item code, with `scaleLabel`. */
                    barcode?: string;
                    /** @description Extension: `true` serves only products with `showOnScale` set, `false` only those without. Not with `q` or `barcode`. */
                    showOnScale?: "true" | "false";
                    /** @description Extension: `true` serves only products with `showOnScreen` set, `false` only those without. Not with `q` or `barcode`. */
                    showOnScreen?: "true" | "false";
                    /** @description Extension, the change feed: every product whose last change is later than this, soft-deleted ones included (`deleted: true`), oldest change first, paged by `cursor`; `meta.completeUntil` says up to when the walk is complete. A time before the deletion horizon (the newest deletion a purge removed; soft-deleted records are purged after `DELETED_RETENTION_DAYS`, default 90; no horizon before the first purge) answers 410: read again from `1970-01-01T00:00:00.000Z`, which lists every record still kept. Also the label-scale feed. Not with `q` or `barcode`. With `showOnScale`, `showOnScreen` or `store`, a changed product the filter no longer takes (switched off the scale, hidden in the store) is listed as a removal (`deleted: true`). */
                    updatedSince?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of products. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Product"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description `updatedSince` is before the newest deletion a purge removed: the feed could miss it. Read everything again, from `1970-01-01T00:00:00.000Z` or without `updatedSince`. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Search index still building; retry shortly. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SearchUnavailable"];
                    };
                };
            };
        };
        put?: never;
        /** Create a product (Write key) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ProductCreate"];
                };
            };
            responses: {
                /** @description Created. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/{productId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a product (also a soft-deleted one, with `deleted: true`) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Product id. */
                    productId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The product. */
                200: {
                    headers: {
                        /** @description A strong entity tag of this answer (extension): send it as `If-Match` with an update to write only if the product is still as read. */
                        ETag: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Product"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /** Update a product partially (Write key) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                    /** @description The `ETag` of the product as read (extension; several separated by `,`, or `*` for any product that exists): the update is written only if the product still has it. */
                    "if-match"?: string;
                };
                path: {
                    /** @description Product id. */
                    productId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ProductUpdate"];
                };
            };
            responses: {
                /** @description Updated. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description With `If-Match`: the product changed or was deleted since it was read; nothing was written. */
                412: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        /** Soft-delete a product (Write key) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Product id. */
                    productId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted (also when it already was). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/{productId}/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload the product image (Write key)
         * @description Replaces any previous image and sets `imageUrl`. At most 10485760 bytes (10 MiB): a file of exactly that size is accepted, one byte more is a 413 and the connection is closed. The bytes must decode as the type the part declares. The previous image is deleted if this server stored it for this product.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Product id. */
                    productId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": components["schemas"]["ProductImageUpload"];
                };
            };
            responses: {
                /** @description Stored; the product now shows it. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ProductImage"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Body larger than the limit. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        /**
         * Clear the product image (Write key)
         * @description Sets `imageUrl` to "" and deletes the file if this server stored it for this product; the same as an update with `imageUrl: ""`. A product without an image answers the same and nothing changes.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Product id. */
                    productId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Cleared. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A stored product image (no key needed)
         * @description The URL an upload returns, for `<img src>`. Sent with its Content-Type, a strong ETag (SHA-256 of the bytes) and `Cache-Control: public, max-age=31536000, immutable`: a new upload always gets a new name.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Name of a stored image, as the last segment of an `imageUrl` this server issued. */
                    file: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The image bytes as uploaded. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/jpeg": string;
                        "image/png": string;
                        "image/webp": string;
                        "image/gif": string;
                    };
                };
                /** @description Not modified (If-None-Match matched the ETag). */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description The `Host` or `Origin` of the request is not one of this server (see ALLOWED_HOSTS, ALLOWED_ORIGINS). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/suppliers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active suppliers by name (not paged)
         * @description Up to `limit` active suppliers ordered by `name` (binary order, ties by id). `meta` has no `nextCursor`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1 to 5000; default 100. */
                    limit?: number;
                    /** @description Extension, the change feed: every supplier whose last change is later than this, soft-deleted ones included (`deleted: true`), oldest change first, paged by `cursor`; `meta.completeUntil` says up to when the walk is complete. A time before the deletion horizon (the newest deletion a purge removed; soft-deleted records are purged after `DELETED_RETENTION_DAYS`, default 90; no horizon before the first purge) answers 410: read again from `1970-01-01T00:00:00.000Z`, which lists every record still kept. */
                    updatedSince?: string;
                    /** @description Extension: only with `updatedSince`, whose walk is paged; the plain list is not. */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Active suppliers. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Supplier"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description `updatedSince` is before the newest deletion a purge removed: the feed could miss it. Read everything again, from `1970-01-01T00:00:00.000Z` or without `updatedSince`. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /** Create a supplier (Write key) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SupplierCreate"];
                };
            };
            responses: {
                /** @description Created. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/suppliers/{supplierId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a supplier (also a soft-deleted one, with `deleted: true`) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Supplier id. */
                    supplierId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The supplier. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Supplier"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /** Update a supplier partially; `deleted: true` soft-deletes (Write key) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Supplier id. */
                    supplierId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SupplierUpdate"];
                };
            };
            responses: {
                /** @description Updated. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List active categories in id order, paged by cursor
         * @description The v1 contract names this endpoint and `limit`; `cursor`, the response and the errors are this server's.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1 to 5000; default 100. */
                    limit?: number;
                    /** @description Opaque cursor from `meta.nextCursor` of the previous page; pass unchanged. */
                    cursor?: string;
                    /** @description Extension, the change feed: every category whose last change is later than this, soft-deleted ones included (`deleted: true`), oldest change first, paged by `cursor`; `meta.completeUntil` says up to when the walk is complete. A time before the deletion horizon (the newest deletion a purge removed; soft-deleted records are purged after `DELETED_RETENTION_DAYS`, default 90; no horizon before the first purge) answers 410: read again from `1970-01-01T00:00:00.000Z`, which lists every record still kept. */
                    updatedSince?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of categories. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Category"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description `updatedSince` is before the newest deletion a purge removed: the feed could miss it. Read everything again, from `1970-01-01T00:00:00.000Z` or without `updatedSince`. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /** Create a category (Write key) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CategoryCreate"];
                };
            };
            responses: {
                /** @description Created. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories/{categoryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a category (also a soft-deleted one, with `deleted: true`) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Category id. */
                    categoryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The category. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Category"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Update a category partially; `deleted: true` soft-deletes (Write key)
         * @description An empty `hideStore`/`allowStore` removes the field. Products of the category follow the new lists at once.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Category id. */
                    categoryId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CategoryUpdate"];
                };
            };
            responses: {
                /** @description Updated. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check or import a catalog file or workbook (Write key)
         * @description A row updates the active product with its `id`, else the one with its `externalId`, else the one with its `barcode`, else it creates a product. Headers are mapped by `columns`, then by the organization's kept mapping (`/catalog/columns`), then by name. With `dryRun=true` the file is only checked: the answer says how many products would be created, updated or left unchanged, lists the changes field by field, every problem by line (the header is line 1) and column (the first 1,000, with the total and the problems grouped by column and kind), and warnings that never block. Without it the file is checked the same way and, when it has no problem, every product is written in one transaction, each queued for the upstream like any write; a file with problems answers 400 in the standard error shape, with the same report in `data`, and writes nothing. Refused with 400: a file that is not what its Content-Type says (a workbook sent as CSV, an OpenDocument file, an old .xls), or a workbook that cannot be read or unpacks to more than 104857600 bytes. Refused with 413: a file over 20971520 bytes (20 MiB).
         */
        post: {
            parameters: {
                query?: {
                    /** @description `true` checks the file and writes nothing: the answer says what an import would do. */
                    dryRun?: "true" | "false";
                    /** @description `true` writes, for each barcode warning that suggests a code (`warnings[].suggested`), the suggested code instead of the cell's: a leading zero a spreadsheet dropped put back, or the barcode the row's product already holds for a code one digit off. Other warnings stay as they are. */
                    fixBarcodes?: "true" | "false";
                    /** @description The file's own headers mapped to product fields for this import, `<header>:<field>` separated by `,` (URL-encoded), e.g. `Strichcode:barcode,Preis:price,Notiz:`; an empty field ignores the column. Wins over the organization's kept mapping (`/catalog/columns`). */
                    columns?: string;
                };
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "text/csv": string;
                    "application/csv": string;
                    "text/plain": string;
                    "application/vnd.ms-excel": string;
                    "application/octet-stream": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
            responses: {
                /** @description Checked (`dryRun=true`), or imported. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CatalogImportResult"];
                        };
                    };
                };
                /** @description The file has problems and nothing was written (the standard shape, with the report in `data`); or the body is not a CSV file or a workbook, or not the one its Content-Type says (standard shape); or `dryRun` or `columns` is not valid (validation shape). */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CatalogImportRefusal"] | components["schemas"]["StandardError"] | components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Conflicts with a stored record. Also: a request with the same `idempotency-key` is still running. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Body larger than the limit. */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalog as a CSV file or an Excel workbook (Read key)
         * @description Every active product in id order, in the columns the import takes, `id` first. CSV: UTF-8 with a byte order mark, `;`-separated (as Excel in Switzerland opens it), CRLF line ends, a barcode of digits written `="0761234567890"` so that a spreadsheet keeps it as text. Workbook (`format=xlsx`): one sheet, barcodes and other text as text cells, money and whole numbers as numbers. Money in francs with a point ("1.95"); `category` and `supplier` by name when no other active one has that name, otherwise by id. Importing the file unchanged changes nothing, and exporting again gives the same file.
         */
        get: {
            parameters: {
                query?: {
                    /** @description `xlsx`: an Excel workbook whose barcodes are text cells; `csv` (default): `;`-separated UTF-8 with a byte order mark. */
                    format?: "csv" | "xlsx";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The file. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog/columns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's kept mapping of spreadsheet headers to product fields (Read key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The mapping; `{}` when none is kept. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CatalogColumnMap"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Keep a mapping of the shop's spreadsheet headers to product fields (Write key)
         * @description Replaces the kept mapping; every later import uses it for headers that `columns` does not map. `""` ignores a column. Not synced: it belongs to the PC where files are imported.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CatalogColumnMap"];
                };
            };
            responses: {
                /** @description Kept. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CatalogColumnMap"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List active stores in id order, paged by cursor */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1 to 5000; default 100. */
                    limit?: number;
                    /** @description Opaque cursor from `meta.nextCursor` of the previous page; pass unchanged. */
                    cursor?: string;
                    /** @description Extension, the change feed: every store whose last change is later than this, soft-deleted ones included (`deleted: true`), oldest change first, paged by `cursor`; `meta.completeUntil` says up to when the walk is complete. A time before the deletion horizon (the newest deletion a purge removed; soft-deleted records are purged after `DELETED_RETENTION_DAYS`, default 90; no horizon before the first purge) answers 410: read again from `1970-01-01T00:00:00.000Z`, which lists every record still kept. */
                    updatedSince?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of stores. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Store"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description `updatedSince` is before the newest deletion a purge removed: the feed could miss it. Read everything again, from `1970-01-01T00:00:00.000Z` or without `updatedSince`. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a store (Write key)
         * @description Payment provider credentials are configured only in the dashboard and are refused here.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["StoreCreate"];
                };
            };
            responses: {
                /** @description Created. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stores/{storeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a store (also a soft-deleted one, with `deleted: true`) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Store id. */
                    storeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The store. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Store"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /** Update a store partially; `null` clears a field, `deleted: true` soft-deletes (Write key) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Store id. */
                    storeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["StoreUpdate"];
                };
            };
            responses: {
                /** @description Updated. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders of a time window, newest first
         * @description Orders with `start` <= orderDate <= `end`, newest first (orderDate, then id), each with its `products` lines. Soft-deleted orders only with `includeDeleted=true`. Paged by `cursor`.
         */
        get: {
            parameters: {
                query: {
                    /** @description Earliest orderDate served (inclusive). */
                    start: string;
                    /** @description Latest orderDate served (inclusive); must not be before start. */
                    end: string;
                    /** @description Only orders in this payment state. */
                    paymentState?: string;
                    /** @description Page size, 1 to 5000; default 100. */
                    limit?: number;
                    /** @description Opaque cursor from `meta.nextCursor` of the previous page; pass unchanged. */
                    cursor?: string;
                    /** @description `true` also serves soft-deleted orders. */
                    includeDeleted?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of orders. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Order"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Record a sale, priced from the catalog (Write key)
         * @description Each line: price = unit price at orderDate (salePrice inside its window, else price) x quantity, rounded half up to cents; tax = round(price x taxRate / (1 + taxRate)); netPrice = price - tax; deposit = product deposit x quantity. Order price = sum of line prices and deposits. Idempotent on `orderId` per store: a repeat with the same store and the same sale (the same lines, and the same orderDate when it is sent) returns the first order id and stores nothing; the same orderId at another store is another sale. A kiosk key: `paymentState` only `successful`, `orderDate` at most 5 minutes ahead of the server and at most 90 days back (else 400); lines that differ from the catalog and late sales are recorded and listed in the day's report (`GET /reports/daily`).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["OrderCreate"];
                };
            };
            responses: {
                /** @description Created, or the same sale already recorded at the store under this orderId. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description This orderId is already recorded at the store for another sale (other lines or orderDate): the message names the difference. Also: a request with the same `idempotency-key` is still running. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an order with its lines (also a soft-deleted one, with `deleted: true`) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Order id (the `id` field, not `orderId`). */
                    orderId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The order. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Order"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /** Update payment fields of an order; `deleted: true` soft-deletes (Write key) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Order id (the `id` field, not `orderId`). */
                    orderId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["OrderUpdate"];
                };
            };
            responses: {
                /** @description Updated. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/{orderId}/print": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Print the order's receipt on a registered network receipt printer (Write key)
         * @description Builds the receipt from the stored order and its store (name, address, VAT number, date and time in the store's `timeZone`, lines, VAT per rate, total, payment) and sends it as ESC/POS commands over TCP to the printer `printer` names. The server asks the printer for its paper status first and sends nothing when it reports its paper end. A printer fault is an answer, not an error: `printed` is false and `state` and `message` say why; `GET /printers` shows the last state of each printer. A printer id that is not registered is a 400. A kiosk key may print as `receiptUrl` only its store's own e-receipt address (the store's `receiptUrl`); any other is a 400.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Order id (the `id` field, not `orderId`). */
                    orderId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ReceiptPrintRequest"];
                };
            };
            responses: {
                /** @description Whether the printer took the receipt. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ReceiptPrintResult"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/printers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Registered receipt printers and their last state (any key)
         * @description The key's organization's printers, by store and name, each with the state the server last found it in since it started (`unknown` before that).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The printers. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PrinterStatus"][];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a store's network receipt printer (Write key)
         * @description Staff register each receipt printer once; kiosks and the staff page then name it by id. The server connects only to registered printers, on a private LAN address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, IPv6 fc00::/7) and a printer port (9100-9102); loopback, link-local, multicast and public addresses and other ports are refused with 400 naming the rule, before any connection, unless the settings `PRINTER_ALLOW_ADDRESSES` and `PRINTER_PORTS` allow them. A host name is resolved once per connection and the server connects to exactly the address it checked.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PrinterCreate"];
                };
            };
            responses: {
                /** @description Registered. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/printers/{printerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a registered printer (Write key)
         * @description Print requests that name it are refused from then on.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Printer id (`GET /printers`). */
                    printerId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/printers/{printerId}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask a registered printer for its paper status, printing nothing (Write key)
         * @description The kiosk calls it at start, so `GET /printers` (and the staff page) show the printer and its state before the first sale. A printer fault is an answer, not an error: `state` and `message` say why. The server connects only to registered printers, on a private LAN address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, IPv6 fc00::/7) and a printer port (9100-9102); loopback, link-local, multicast and public addresses and other ports are refused with 400 naming the rule, before any connection, unless the settings `PRINTER_ALLOW_ADDRESSES` and `PRINTER_PORTS` allow them. A host name is resolved once per connection and the server connects to exactly the address it checked.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Printer id (`GET /printers`). */
                    printerId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The printer as the check found it. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PrinterStatus"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/terminals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Registered card terminals (read key; a kiosk key sees its store’s) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The terminals, without passphrases. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Terminal"][];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a store's card terminal (Write key)
         * @description A terminal in Adyen Terminal API local mode (`nexo-local`). Its address must be on the private LAN on port 8443 unless `TERMINAL_ALLOW_ADDRESSES` allows it; its TLS certificate must chain to `certificate` and name the terminal, `<poiId>.test.terminal.adyen.com` or `<poiId>.live.terminal.adyen.com`; the address must take a connection when the terminal is registered (400 otherwise). The passphrase is sealed at rest and never answered or logged.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TerminalCreate"];
                };
            };
            responses: {
                /** @description Registered. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/terminals/{terminalId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a card terminal (Write key)
         * @description New payments no longer go to it; payments it took are still settled with it.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Terminal id (`GET /terminals`). */
                    terminalId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/terminals/{terminalId}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether the server reaches the terminal now (kiosk key of its store, or Write key)
         * @description Sends the terminal a status query for a transaction it cannot know, charging nothing. An unreachable terminal is an answer, not an error: `reachable` is false and `message` says why. The kiosk hides *Card* while it is false.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Terminal id (`GET /terminals`). */
                    terminalId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Whether it answered. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["TerminalCheck"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/terminals/{terminalId}/totals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The terminal's own card totals (read key)
         * @description Asks the terminal for its totals since its last reconciliation (nexo SaleReconciliation), per card brand: approved payments and their amount minus reversals. The day's report compares them with the card sales it recorded. 502 when the terminal does not answer.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Terminal id (`GET /terminals`). */
                    terminalId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The terminal's totals. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["TerminalTotals"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Error. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A sale's payment attempts, the payments since a time, or the approved payments no order names
         * @description One of `reference`, `since` or `unrecorded=true`. An approved payment whose sale was never recorded is not reversed by itself: a kiosk may still be resending the sale from its journal. Staff see it with `unrecorded=true` and refund it (`POST /payments/{paymentId}/refund`) or record the sale with it. `unrecorded=true` also lists refused approvals whose reversal is pending (charged, `refusal.reversed` false).
         */
        get: {
            parameters: {
                query?: {
                    /** @description The sale's reference: its attempts, oldest first. */
                    reference?: string;
                    /** @description Payments started at or after this time, newest first (the staff page: today's payments). */
                    since?: string;
                    /** @description `true`: money taken without a sale, oldest first, for staff to refund or record: approved payments no order names yet (the kiosk died and the customer walked away), and refused approvals whose reversal the terminal has not confirmed yet (`refusal.reversed` false). */
                    unrecorded?: "true";
                    /** @description Only this store's payments. */
                    store?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The attempts. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Payment"][];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Start a card payment at the store's terminal (kiosk key of the store, or Write key)
         * @description The attempt is stored, with its own transaction reference, before the terminal hears of it; the answer is 202 with the payment `pending`. Follow it with `GET /payments/{paymentId}`. One charge per sale: while the store has a payment of the sale (`reference`) that is `pending`, `unknown`, `approved`, `refunding`, `refunded` or `partially-refunded`, the answer is 409 with that payment in `data`: resume it. A declined or cancelled attempt, or a refused approval the server reversed, does not block a new one. An `Idempotency-Key` replays the first answer. 400 above `PAYMENT_MAX_CENTS`; 422 when the store has no terminal.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PaymentCreate"];
                };
            };
            responses: {
                /** @description Sent to the terminal. */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Payment"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The sale has a payment already; `data` is that payment. Also: a request with the same `idempotency-key` is still running. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A payment and what the terminal said
         * @description A kiosk key sees its own store’s payments only; another store’s is 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Payment id. */
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The payment. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Payment"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{paymentId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the terminal to stop a payment
         * @description The terminal’s own answer still decides: an approval that came first wins, and the payment stays approved.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Payment id. */
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Asked. */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Payment"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{paymentId}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund an approved payment, whole or in part (Write key)
         * @description The terminal reverses `amount` cents (default what is left). The refund is stored, and the payment `refunding`, before the terminal hears of it. The answer comes once the terminal answered: `partially-refunded` or `refunded`; when its answer is lost the payment stays `refunding` and the server asks the terminal until it tells. A refused approval not yet reversed (`refusal.reversed` false) is reversed now, whole. 409 (with the payment in `data`) while a refund of it is out, or when it is not approved; 422 when the terminal refused; 502 when it could not be reached (nothing was refunded).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Payment id. */
                    paymentId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PaymentRefund"];
                };
            };
            responses: {
                /** @description Refunded, or `refunding` while the server follows a lost answer. */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Payment"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A refund is out, or the payment is not approved. Also: a request with the same `idempotency-key` is still running. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Error. */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A store's takings of one local day (day closing)
         * @description The day is the store's local day in its `timeZone` (default Europe/Zurich): 23 or 25 hours on the days the clocks change. Counted are orders in payment state `successful` that are not deleted; every total is a sum of what the orders stored, so they add up to the orders to the cent. An unknown store or a date that is not a calendar day is a 400 in the validation shape.
         */
        get: {
            parameters: {
                query: {
                    /** @description Store id. */
                    store: string;
                    /** @description The store's local day, YYYY-MM-DD. */
                    date: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The report. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["DailyReport"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/daily/print": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Print a store's day's report on a network receipt printer (Write key)
         * @description Builds the report of `GET /reports/daily` for the store and day (store name, date and time zone, sales, total, per payment method and brand, VAT per rate, deposits, discounts, orders not counted, first and last sale) and sends it as ESC/POS commands over TCP, as `POST /receipts/{orderId}/print` does with a receipt: paper status first, nothing sent at the paper end. A printer fault is an answer, not an error: `printed` is false and `state` and `message` say why; `GET /printers` lists the printer with its state afterwards. A missing or wrong field, an unknown store, a date that is not a calendar day or a printer id that is not registered is a 400 in the validation shape.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DailyReportPrintRequest"];
                };
            };
            responses: {
                /** @description Whether the printer took the report. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ReceiptPrintResult"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/identity-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List identity checks, newest first
         * @description Newest first by logDate, then id; `start` and `end` are inclusive. Paged by `cursor`. Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only checks made in this store. */
                    store?: string;
                    /** @description Only checks of this document source. */
                    source?: string;
                    /** @description `allowed`: only granted checks; `denied`: only refused ones. */
                    access?: "allowed" | "denied";
                    /** @description Earliest logDate served (inclusive). */
                    start?: string;
                    /** @description Latest logDate served (inclusive); must not be before start. */
                    end?: string;
                    /** @description Page size, 1 to 5000; default 100. */
                    limit?: number;
                    /** @description Opaque cursor from `meta.nextCursor` of the previous page; pass unchanged. */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of identity checks. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["IdentityLog"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Record an identity check (Write key)
         * @description Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["IdentityLogCreate"];
                };
            };
            responses: {
                /** @description Recorded. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/identity-logs/verdict": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Is this identity blocked? (Kiosk or write key)
         * @description Compares an identity read from a document with the active blocked identities: the same raw MRZ, or the same last name with every blocked first name among the given ones and, when the blocked identity has one, the same birth date. Answers only `blocked`; the list stays on the server. The birth date as read from the document is required, so the blocked list cannot be probed by names alone; each key may ask for 30 verdicts a minute, then 429. Each verdict is recorded as an identity check (`logType` `verdict`, `access` false when blocked). Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["IdentityVerdictRequest"];
                };
            };
            responses: {
                /** @description The verdict. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["IdentityVerdict"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Too many requests of this kind from this key; `Retry-After` says in how many seconds to try again. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/identity-logs/blocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List blocked identities in id order
         * @description Active (not unblocked) identities, paged by `cursor`. Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1 to 5000; default 100. */
                    limit?: number;
                    /** @description Opaque cursor from `meta.nextCursor` of the previous page; pass unchanged. */
                    cursor?: string;
                    /** @description Extension, the change feed: every blocked identity whose last change is later than this, soft-deleted ones included (`deleted: true`), oldest change first, paged by `cursor`; `meta.completeUntil` says up to when the walk is complete. A time before the deletion horizon (the newest deletion a purge removed; soft-deleted records are purged after `DELETED_RETENTION_DAYS`, default 90; no horizon before the first purge) answers 410: read again from `1970-01-01T00:00:00.000Z`, which lists every record still kept. */
                    updatedSince?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of blocked identities. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["BlockedIdentity"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description `updatedSince` is before the newest deletion a purge removed: the feed could miss it. Read everything again, from `1970-01-01T00:00:00.000Z` or without `updatedSince`. */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Block an identity (Write key)
         * @description Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BlockedIdentityCreate"];
                };
            };
            responses: {
                /** @description Blocked. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/identity-logs/blocked/{blockedId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a blocked identity (also an unblocked one, with `deleted: true`)
         * @description Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Blocked identity id. */
                    blockedId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The blocked identity. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["BlockedIdentity"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Update a blocked identity (Write key)
         * @description comment, first_name and last_name are required; an omitted birthDate keeps the stored one. Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Blocked identity id. */
                    blockedId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BlockedIdentityUpdate"];
                };
            };
            responses: {
                /** @description Updated. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        /**
         * Unblock an identity: soft-deletes it (Write key)
         * @description Needs the identity-logs feature: 403 `Feature not available` otherwise.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Blocked identity id. */
                    blockedId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Unblocked (also when it already was). */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reconciliation with the upstream: state and queue
         * @description Configured with the `sync` CLI commands. The upstream key is never returned.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Where sync stands for the organization of the key. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["SyncStatus"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sync/parked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Local writes the upstream refused
         * @description Oldest first, with the status and message the upstream answered. `sync retry` and `sync discard` act on them.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The parked entries. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ParkedEntry"][];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sync/parked/{entryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Put a parked entry back in the queue (Write key)
         * @description What `sync retry` does: the entry is pushed again in its place in the queue, and a round starts soon. No body.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Entry id as `GET /sync/parked` lists it (a whole number); anything else is a 400. */
                    entryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Back in the queue. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Retried"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sync/parked/{entryId}/discard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give up on a parked entry (Write key)
         * @description What `sync discard` does: the local write is never sent to the upstream, so the upstream stays without it (the local record keeps it). The outbox keeps a record of the entry. No body.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Entry id as `GET /sync/parked` lists it (a whole number); anything else is a 400. */
                    entryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Discarded. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Discarded"];
                        };
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's keys, never a secret (Write key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every key, revoked ones included, oldest first. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Key"][];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Make a key, e.g. one per kiosk bound to its store (Write key)
         * @description The secret is in this answer only; only its hash is stored. `Idempotency-Key` is not honoured here, since a kept answer would keep the secret: a client that lost the answer makes another key and revokes the first.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["KeyCreate"];
                };
            };
            responses: {
                /** @description Created. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KeyCreated"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The key of this request (any key)
         * @description A kiosk's set-up screen learns its store from it, and can refuse a staff key.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The key. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CurrentKey"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a key at once (Write key)
         * @description The very next request made with the key is refused.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Key id, as `GET /keys` lists it. */
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/staff/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign the staff page in for a working day (Write or Read key)
         * @description Sent with the key in `Authorization`. The answer sets the cookie `staff_sign_in` (HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS), which then stands for that key (same kind, same store) in requests without `Authorization` until it expires (12 hours), the page signs out, or the key is revoked; then such a request answers 401. A write made with the cookie must carry this server's own `Origin`. Only the token's hash is stored. `Idempotency-Key` is not honoured here, since a kept answer would keep the secret.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Signed in; the cookie is set. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StaffSignIn"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        /**
         * Sign the staff page out (the sign-in, or a Write or Read key)
         * @description Ends the sign-in the `staff_sign_in` cookie carries and clears the cookie; the very next request with it answers 401.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Signed out. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description The cookie's sign-in has already ended: sign in again with the key. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fleet/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A store PC's state, after its sync rounds (Write key)
         * @description Sent by the sync worker of a store PC whose upstream is this server (it finds this path in this document). Replaces the device's last report; one row per device and organization. Unknown fields are ignored.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["Heartbeat"];
                };
            };
            responses: {
                /** @description Recorded. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fleet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The store PCs that sync with this server, with a computed state
         * @description Every device of the organization that ever reported, by name. A device that stops reporting stays, `offline`, until `DELETE /fleet/{device}` removes it. Thresholds: `behindSeconds`, `offlineSeconds`, else the server's `FLEET_BEHIND_SECONDS` (900) and `FLEET_OFFLINE_SECONDS` (600).
         */
        get: {
            parameters: {
                query?: {
                    /** @description Behind threshold in seconds; default `FLEET_BEHIND_SECONDS` or 900. */
                    behindSeconds?: number;
                    /** @description Offline threshold in seconds; default `FLEET_OFFLINE_SECONDS` or 600. */
                    offlineSeconds?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The devices. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["FleetDevice"][];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fleet/{device}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Forget a store PC (Write key)
         * @description For a PC replaced or switched off for good. One that reports again is listed again.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The device (installation id) as `GET /fleet` lists it. */
                    device: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mail queue, newest first (Write key)
         * @description Every mail this server queued: alerts, daily sales, statements, tests. A mail is retried with growing waits while the mail server is away or answers a temporary error (4xx) and is `failed` on a permanent refusal (5xx). Sent and failed mails are kept 90 days.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1 to 5000; default 100. */
                    limit?: number;
                    /** @description Opaque cursor from `meta.nextCursor` of the previous page; pass unchanged. */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of mails. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Mail"][];
                            meta: components["schemas"]["ListMeta"];
                        };
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mail/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a test mail (Write key)
         * @description The mail goes out as every other one does; `GET /mail` shows whether the mail server accepted it, or its words when it did not.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MailTest"];
                };
            };
            responses: {
                /** @description Queued. */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MailTestQueued"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mail/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The organization's mail server (Write key)
         * @description Replaces `SMTP_URL` and `MAIL_FROM` for this organization. The URL, which may hold a password, is stored sealed and never answered.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MailSettings"];
                };
            };
            responses: {
                /** @description Stored; the next mail uses it. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mail/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a day's supplier sales mails now (Write key)
         * @description One mail per supplier whose `dailyMail` holds an e-mail address and whose lines sold that day (in each store's time zone), per store: product, quantity, amount. A supplier's mail for a day is queued once, however often this is called (also by the server itself at `DAILY_MAIL_AT`).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["MailDaily"];
                };
            };
            responses: {
                /** @description How many mails this call queued. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MailQueued"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open and recent alerts, open ones first (Write key)
         * @description A condition that lasted `ALERT_AFTER_MS` (default 5 minutes) sends an `alert` mail to the store's `adminMail`, its end an `alert-resolved` mail; at most one alert mail per condition and store an hour.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The alerts. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Alert"][];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payout-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's payout account (read key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The account, the IBAN without spaces. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PayoutAccount"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Set the organization's payout account (Write key)
         * @description The account payout files pay from. The IBAN is checked (country, length, check digits); a QR-IBAN is refused, as it takes only QR bills.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PayoutAccount"];
                };
            };
            responses: {
                /** @description Kept. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Success"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Settlements, newest first (read key) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The settlements with their totals in cents. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["SettlementSummary"][];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Settle what the suppliers sold (Write key)
         * @description Takes every line with a `supplier` of every order not deleted, with `paymentState` `successful`, `partially-refunded` or `refunded`, that the server recorded before `to` (of `store` when given) and that no earlier settlement took, and the refunds recorded since a line was settled, as negative amounts. A line is in one settlement at most, whatever crashes and restores happen. Numbers run 1, 2, 3 … per organization. 400 for `to` in the future, 404 for a store of another organization, 409 with nothing to take.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SettlementCreate"];
                };
            };
            responses: {
                /** @description Settled. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Created"];
                    };
                };
                /** @description Invalid body or parameters; the message names the field and the reason. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Conflicts with a stored record. Also: a request with the same `idempotency-key` is still running. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settlements/{settlementId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A settlement: what each supplier sold and is owed (read key)
         * @description Amounts in cents. `gross` sums the lines' price less refunds (deposits excluded); the margin percent is the supplier's `supplierMargin`, else the store's `generalMargin`, else 0; `margin` is rounded half up per supplier and store, then summed; `payout` = `gross` - `margin`. `payoutProblem` tells why a supplier is left out of the payout file.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Settlement id (`GET /settlements`). */
                    settlementId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The settlement. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Settlement"];
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settlements/{settlementId}/payout-file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The payout file to upload in e-banking (read key)
         * @description ISO 20022 `pain.001.001.09` after the Swiss Payment Standards (`pain.001.001.09.ch.03`): the payout account as debtor, one CHF credit transfer per supplier without `payoutProblem`. Names are transliterated to the SPS character set. 409 without a payout account.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Settlement id (`GET /settlements`). */
                    settlementId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The file. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/xml": string;
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description Conflicts with a stored record. */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settlements/{settlementId}/statements/{supplierId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A supplier's statement (read key)
         * @description A PDF in the language of the store where the supplier sold most: the shop, the period, per product quantity and sales, the margin and its percent, the payout and its account. `?format=csv`: the lines for a spreadsheet.
         */
        get: {
            parameters: {
                query?: {
                    /** @description `csv` for a spreadsheet; default PDF. */
                    format?: "pdf" | "csv";
                };
                header?: never;
                path: {
                    /** @description Settlement id (`GET /settlements`). */
                    settlementId: string;
                    /** @description Supplier id, one of the settlement’s `suppliers`. */
                    supplierId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The statement. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                        "text/csv": string;
                    };
                };
                /** @description Invalid query parameters or body fields, in the validation shape. */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settlements/{settlementId}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail each supplier its statement (Write key)
         * @description Queues one `statement` mail per supplier with its PDF attached, to `payoutEmail`, else `email`, in the language of the supplier's statement. Each supplier is mailed once per settlement however often this is called: `queued` counts the mails queued by this call. A supplier without an address is left out until one is set.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it (another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; the same value with another body is 422; a repeat while the first request is still running is 409. Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it (`sync-acknowledged-below`), for at most 90 days. */
                    "idempotency-key"?: string;
                    /** @description Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). Honoured only from write keys (the keys a store syncs with); from any other key it is ignored. */
                    "sync-acknowledged-below"?: string;
                };
                path: {
                    /** @description Settlement id (`GET /settlements`). */
                    settlementId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Queued. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Mails queued by this call. */
                                queued: number;
                            };
                        };
                    };
                };
                /** @description Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server. */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description No record with that id in the organization of the key. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description A request with the same `Idempotency-Key` is still running (or the record conflicts). */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
                /** @description The `Idempotency-Key` was already used with another body. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Health: {
            /** @enum {string} */
            status: "ok";
            /** @description Version of this server. */
            version: string;
            /**
             * @description `building` while a product search index is still being built.
             * @enum {string}
             */
            search: "ready" | "building";
        };
        StandardError: {
            statusCode: number;
            /** @description What went wrong, naming the field or resource. */
            message: string;
            /** @description ISO 8601 time of the error. */
            timestamp: string;
            /** @description Request path. */
            path: string;
        };
        UpdateStatus: {
            /**
             * @description `off`: no update source set; `waiting`: downloaded, installs when the kiosk is idle or at the night hour.
             * @enum {string}
             */
            state: "off" | "idle" | "checking" | "downloading" | "waiting" | "installing" | "failed";
            currentVersion: string;
            /** @description A newer version the update source offers to this PC, if any. */
            availableVersion: string | null;
            /** Format: date-time */
            lastCheckAt: string | null;
            /** @description Why the last check or download failed, in words staff can act on. */
            message: string | null;
        };
        /** @description What staff check on the store PC: version, database size and disk space. */
        SystemInfo: {
            /** @description Version of this server. */
            version: string;
            /** @description Size of the SQLite database with its write-ahead log, in bytes. */
            databaseBytes: number;
            /** @description Space left for the data folder on its disk, in bytes (what an unprivileged process may use). */
            diskFreeBytes: number;
            /** @description Size of the disk holding the data folder, in bytes. */
            diskTotalBytes: number;
            /** @description SHA-256 fingerprint (`AB:CD:…`) of the certificate this server serves HTTPS with, for staff to compare when a till first connects; null over plain HTTP. */
            tlsFingerprint: string | null;
        };
        /** @description A product. Optional fields that were never set are absent. */
        Product: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description External identifier. */
            externalId?: string;
            name: string;
            /** @description Gross price in cents (VAT included). */
            price: number;
            /** @description Supplier id. */
            supplier?: string;
            /**
             * @description Swiss VAT category: "8.1", "2.6", "3.8" or "0" (rates 8.1 %, 2.6 %, 3.8 %, 0 %).
             * @enum {string}
             */
            taxCategory: "0" | "8.1" | "2.6" | "3.8";
            /** @description Category id; the category decides `allowStore`/`hideStore`. */
            category?: string;
            declarations?: string;
            /** @description Stored trimmed and lowercased; empty means the product id. */
            barcode: string;
            /** @description Absent when the product has none. */
            barcodeAliases?: components["schemas"]["BarcodeAlias"][];
            /** @description Deposit in cents per unit. */
            depositProduct?: number;
            depositProductLabel?: string;
            description?: string;
            /** @description Sale price in cents, used between `salePriceDateFrom` and `salePriceDateTo`. */
            salePrice?: number;
            salePercentage?: number;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            salePriceDateFrom?: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            salePriceDateTo?: string;
            /** @description Purchase price in cents. Left out of answers to kiosk and scale keys. */
            costPrice?: number;
            /** @description Left out of answers to kiosk and scale keys. */
            margin?: number;
            showOnScreen?: boolean;
            /** @description Sold only to buyers of a minimum age: `minimumAge`, 18 when that is not given. */
            ageRestriction?: boolean;
            /** @description Extension: the age a buyer must have reached, 16 or 18 (beer, wine and cider from 16 in Switzerland). Setting it sets `ageRestriction`; it cannot be sent with `ageRestriction: false`. Read: present exactly when `ageRestriction` is true, 18 when only that was set; `ageRestriction: false` removes it. */
            minimumAge?: 16 | 18;
            showOnScale?: boolean;
            saleStop?: boolean;
            deactivated?: boolean;
            openInput?: boolean;
            /** @description Empty string when the product has no image. */
            imageUrl: string;
            /** @description Sort position. */
            index?: number;
            /** @description Read-only copy of the category's allowed stores; absent when empty. */
            allowStore?: string[];
            /** @description Read-only copy of the category's hidden stores; absent when empty. */
            hideStore?: string[];
            deleted: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            createdate: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            lastupdate: string;
            /** @description Organization id. */
            instance: string;
            scaleLabel?: components["schemas"]["ScaleLabel"];
        };
        BarcodeAlias: {
            /** @description Additional EAN or other code; stored lowercased. */
            code: string;
            /**
             * @description Base units the code stands for; default 1.
             * @default 1
             */
            quantity: number;
            /** @description Pack price in cents. */
            price?: number;
            label?: string;
            /** @description External article id. */
            externalId?: string;
        };
        /** @description Extension: what a scanned scale label says. Present only on `GET /products?barcode=` answers whose code matched no barcode exactly but a scale-label rule (by default `21IIIIIVVVVVC` weight in grams, `23IIIIIVVVVVC` price in cents). */
        ScaleLabel: {
            /** @enum {string} */
            kind: "weight";
            /** @description Weight printed in the label, in grams. */
            grams: number;
            /** @description Price in cents: the product's price per kilogram x the weight, rounded half up. */
            price: number;
        } | {
            /** @enum {string} */
            kind: "price";
            /** @description Price printed in the label, in cents. */
            price: number;
        };
        ListMeta: {
            /** @description Match count; equals `returned` except for product search without `store` (estimated matches). */
            total: number;
            /** @description Number of items in `data`. */
            returned: number;
            /** @description Applied page size. */
            limit: number;
            /** @description Only for product search with `q`. */
            offset?: number;
            /** @description Present when more results may exist; pass unchanged as `cursor`. */
            nextCursor?: string;
            /**
             * Format: date-time
             * @description Extension, only with `updatedSince`: every change up to this instant (of the server's clock) is in this walk, counted from its first page. Pass the first page's value as the next walk's `updatedSince`.
             */
            completeUntil?: string;
        };
        /** @description Invalid query parameters of a list endpoint. */
        ValidationError: {
            error: {
                formErrors: string[];
                fieldErrors: {
                    [key: string]: string[];
                };
            };
        };
        /** @description Product search is temporarily unavailable (index still building). */
        SearchUnavailable: {
            error: string;
        };
        Created: {
            success: boolean;
            /** @description Id of the created record. */
            id: string;
        };
        /** @description A new product. Unknown and read-only fields are refused. */
        ProductCreate: {
            /** @description External identifier. */
            externalId?: string;
            name: string;
            /** @description Gross price in cents (VAT included). */
            price: number;
            /** @description Supplier id. */
            supplier?: string;
            /**
             * @description Swiss VAT category: "8.1", "2.6", "3.8" or "0" (rates 8.1 %, 2.6 %, 3.8 %, 0 %).
             * @enum {string}
             */
            taxCategory: "0" | "8.1" | "2.6" | "3.8";
            /** @description Category id; the category decides `allowStore`/`hideStore`. */
            category?: string;
            declarations?: string;
            /** @description Stored trimmed and lowercased; empty means the product id. */
            barcode?: string;
            /** @description Needs the barcode-aliases feature. An empty array removes the aliases. */
            barcodeAliases?: components["schemas"]["BarcodeAlias"][];
            /** @description Deposit in cents per unit. */
            depositProduct?: number;
            depositProductLabel?: string;
            description?: string;
            /** @description Sale price in cents, used between `salePriceDateFrom` and `salePriceDateTo`. */
            salePrice?: number;
            salePercentage?: number;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            salePriceDateFrom?: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            salePriceDateTo?: string;
            /** @description Purchase price in cents. Left out of answers to kiosk and scale keys. */
            costPrice?: number;
            /** @description Left out of answers to kiosk and scale keys. */
            margin?: number;
            showOnScreen?: boolean;
            /** @description Sold only to buyers of a minimum age: `minimumAge`, 18 when that is not given. */
            ageRestriction?: boolean;
            /** @description Extension: the age a buyer must have reached, 16 or 18 (beer, wine and cider from 16 in Switzerland). Setting it sets `ageRestriction`; it cannot be sent with `ageRestriction: false`. Read: present exactly when `ageRestriction` is true, 18 when only that was set; `ageRestriction: false` removes it. */
            minimumAge?: 16 | 18;
            showOnScale?: boolean;
            saleStop?: boolean;
            deactivated?: boolean;
            openInput?: boolean;
            /** @description Stored as given; an empty string on update clears it and deletes a stored image. */
            imageUrl?: string;
            /** @description Sort position. */
            index?: number;
        };
        Success: {
            success: boolean;
        };
        /** @description Partial update: only the fields sent change. */
        ProductUpdate: {
            /** @description External identifier. */
            externalId?: string;
            name?: string;
            /** @description Gross price in cents (VAT included). */
            price?: number;
            /** @description Supplier id. */
            supplier?: string;
            /**
             * @description Swiss VAT category: "8.1", "2.6", "3.8" or "0" (rates 8.1 %, 2.6 %, 3.8 %, 0 %).
             * @enum {string}
             */
            taxCategory?: "0" | "8.1" | "2.6" | "3.8";
            /** @description Category id; the category decides `allowStore`/`hideStore`. */
            category?: string;
            declarations?: string;
            /** @description Stored trimmed and lowercased; empty means the product id. */
            barcode?: string;
            /** @description Needs the barcode-aliases feature. An empty array removes the aliases. */
            barcodeAliases?: components["schemas"]["BarcodeAlias"][];
            /** @description Deposit in cents per unit. */
            depositProduct?: number;
            depositProductLabel?: string;
            description?: string;
            /** @description Sale price in cents, used between `salePriceDateFrom` and `salePriceDateTo`. */
            salePrice?: number;
            salePercentage?: number;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            salePriceDateFrom?: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            salePriceDateTo?: string;
            /** @description Purchase price in cents. Left out of answers to kiosk and scale keys. */
            costPrice?: number;
            /** @description Left out of answers to kiosk and scale keys. */
            margin?: number;
            showOnScreen?: boolean;
            /** @description Sold only to buyers of a minimum age: `minimumAge`, 18 when that is not given. */
            ageRestriction?: boolean;
            /** @description Extension: the age a buyer must have reached, 16 or 18 (beer, wine and cider from 16 in Switzerland). Setting it sets `ageRestriction`; it cannot be sent with `ageRestriction: false`. Read: present exactly when `ageRestriction` is true, 18 when only that was set; `ageRestriction: false` removes it. */
            minimumAge?: 16 | 18;
            showOnScale?: boolean;
            saleStop?: boolean;
            deactivated?: boolean;
            openInput?: boolean;
            /** @description Stored as given; an empty string on update clears it and deletes a stored image. */
            imageUrl?: string;
            /** @description Sort position. */
            index?: number;
        };
        ProductImage: {
            /** @description Absolute URL of the stored image; a browser loads it without a key. */
            url: string;
            /** @description The product's new `imageUrl`: the same absolute URL. */
            imageUrl: string;
        };
        /** @description multipart/form-data with exactly one part, named `file`. */
        ProductImageUpload: {
            /**
             * Format: binary
             * @description The image, at most 10485760 bytes and 50000000 pixels. Its type is taken from the part's Content-Type (image/jpeg, image/png, image/webp, image/gif) and the bytes must decode as that type. The file name is ignored.
             */
            file: string;
        };
        /** @description A supplier. Optional fields that were never set are absent. A kiosk key reads only `id`, `name`, `organizationId`, `deleted` and `createdate`. */
        Supplier: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description Display name; the list is ordered by it. */
            name: string;
            /** @description External identifier. */
            externalId?: string;
            company?: string;
            city?: string;
            street?: string;
            /** @description Postal code. */
            plz?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            email?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            payoutEmail?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            orderEmail?: string;
            phone?: string;
            contactPerson?: string;
            contactPhone?: string;
            dailyMail?: string;
            /** @description Margin of the supplier, a number as the organization defines it. */
            supplierMargin?: number;
            iban?: string;
            bic?: string;
            bankName?: string;
            payoutsEnabled?: boolean;
            /** @description Organization id. */
            organizationId: string;
            deleted: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            createdate: string;
        };
        /** @description A new supplier. Unknown and read-only fields are refused. */
        SupplierCreate: {
            /** @description Display name; the list is ordered by it. */
            name: string;
            /** @description External identifier. */
            externalId?: string;
            company?: string;
            city?: string;
            street?: string;
            /** @description Postal code. */
            plz?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            email?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            payoutEmail?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            orderEmail?: string;
            phone?: string;
            contactPerson?: string;
            contactPhone?: string;
            dailyMail?: string;
            /** @description Margin of the supplier, a number as the organization defines it. */
            supplierMargin?: number;
            iban?: string;
            bic?: string;
            bankName?: string;
            payoutsEnabled?: boolean;
        };
        /** @description Partial update: only the fields sent change. */
        SupplierUpdate: {
            /** @description Display name; the list is ordered by it. */
            name?: string;
            /** @description External identifier. */
            externalId?: string;
            company?: string;
            city?: string;
            street?: string;
            /** @description Postal code. */
            plz?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            email?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            payoutEmail?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            orderEmail?: string;
            phone?: string;
            contactPerson?: string;
            contactPhone?: string;
            dailyMail?: string;
            /** @description Margin of the supplier, a number as the organization defines it. */
            supplierMargin?: number;
            iban?: string;
            bic?: string;
            bankName?: string;
            payoutsEnabled?: boolean;
            /** @description `true` soft-deletes; `false` restores. */
            deleted?: boolean;
        };
        /** @description A product category. Optional fields that were never set are absent. */
        Category: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            name: string;
            /** @description External identifier. */
            externalId?: string;
            /** @description Sort position. */
            index?: number;
            showOnScreen?: boolean;
            imageUrl?: string;
            marginMinPercent?: number;
            marginMaxPercent?: number;
            /** @description Absent when empty. */
            hideStore?: string[];
            /** @description Absent when empty. */
            allowStore?: string[];
            deleted: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            createdate: string;
        };
        /** @description A new category. Unknown and read-only fields are refused. */
        CategoryCreate: {
            name: string;
            /** @description External identifier. */
            externalId?: string;
            /** @description Sort position. */
            index?: number;
            showOnScreen?: boolean;
            imageUrl?: string;
            marginMinPercent?: number;
            marginMaxPercent?: number;
            /** @description Store ids where products of this category are hidden; each must name a store of the organization. An empty array removes the field. */
            hideStore?: string[];
            /** @description When not empty, products of this category show only in these stores; each must name a store of the organization. An empty array removes the field. */
            allowStore?: string[];
        };
        /** @description Partial update: only the fields sent change. */
        CategoryUpdate: {
            name?: string;
            /** @description External identifier. */
            externalId?: string;
            /** @description Sort position. */
            index?: number;
            showOnScreen?: boolean;
            imageUrl?: string;
            marginMinPercent?: number;
            marginMaxPercent?: number;
            /** @description Store ids where products of this category are hidden; each must name a store of the organization. An empty array removes the field. */
            hideStore?: string[];
            /** @description When not empty, products of this category show only in these stores; each must name a store of the organization. An empty array removes the field. */
            allowStore?: string[];
            /** @description `true` soft-deletes; `false` restores. */
            deleted?: boolean;
        };
        CatalogImportResult: {
            /** @description Rows that create a product (none matched by `id`, `externalId` or `barcode`). */
            created: number;
            /** @description Rows that change the product they match. */
            updated: number;
            /** @description Rows whose product already holds every value of the row. */
            unchanged: number;
            /** @description The problems found, in line order, at most 1000; empty when the file can be imported. */
            errors: components["schemas"]["CatalogFileError"][];
            /** @description How many problems there are in all. */
            errorsTotal: number;
            /** @description Every problem grouped by column and kind, the largest group first: what to correct, in a few lines. */
            errorGroups: components["schemas"]["CatalogErrorGroup"][];
            /** @description What looks wrong but imports as written (never blocking), at most 1000: a barcode with a wrong GS1 check digit or whose leading zeros a spreadsheet dropped, text decoded in the wrong character set or with letters replaced by "?", a margin ((price - costPrice) / price) outside the category's `marginMinPercent`..`marginMaxPercent`. */
            warnings: components["schemas"]["CatalogFileWarning"][];
            /** @description How many warnings there are in all. */
            warningsTotal: number;
            /** @description Every warning grouped by column and kind, the largest group first. */
            warningGroups: components["schemas"]["CatalogErrorGroup"][];
            /** @description How many warnings suggest a barcode (`suggested`), which `?fixBarcodes=true` writes instead. */
            warningsFixable: number;
            /** @description How many barcodes `?fixBarcodes=true` replaced by the suggested code (0 without it). */
            barcodesFixed: number;
            /** @description What the rows that update a product change, field by field, in line order: the first 1000. */
            changes: components["schemas"]["CatalogFileChange"][];
            /** @description How many field changes there are in all. */
            changesTotal: number;
            /** @description Each column of the header row and the field it is read as (columns with neither header nor values left out): what a page shows to map the file's columns. */
            header: components["schemas"]["CatalogHeaderColumn"][];
            /** @description The first 5 rows after the header, as text, whatever their problems. */
            preview: components["schemas"]["CatalogPreviewRow"][];
        };
        CatalogFileError: {
            /** @description Line of the file, the header being line 1 (a spreadsheet's row number). */
            line: number;
            /** @description The header's name of the column, as the file writes it; null when the whole line is wrong. */
            column: string | null;
            /** @description What is wrong and what would be accepted, in English. */
            message: string;
            kind: components["schemas"]["CatalogProblemKind"];
            /** @description The values `kind`'s text needs (listed with `kind`), as text; `{}` when it needs none. */
            params: {
                [key: string]: string;
            };
        };
        /**
         * @description What the problem is, for a page to say in its own language (`message` says it in English). `params` hold the values the text needs: `file-empty`, `file-utf16` (save it as CSV UTF-8), `quote-not-closed`, `quote-in-cell`: the file cannot be read (from `line` on); `header-unknown` {header}, `header-missing` {position}, `header-twice` {field, other}: line 1 names no field, or one twice; `line-fields` {count, expected}: the line has more or fewer cells than the header; `barcode-shortened`, `francs-negative`, `francs-invalid`, `date-invalid`, `boolean-invalid`, `integer-invalid` {value}, `tax-invalid` {value, options}: a cell cannot be read as its field; `external-id-ambiguous`, `barcode-ambiguous` {value, count}, `barcode-repeated` {value, otherLine}, `product-repeated` {otherLine}: the row cannot tell which product it updates; `category-unknown`, `supplier-unknown` {value}, `category-ambiguous`, `supplier-ambiguous` {value, count}: a reference names nothing, or several; `required`, `too-small` {minimum}, `too-big` {maximum}, `invalid-option` {options}, `invalid-format` {format}, `invalid-type` {expected}, `age-limit-conflict`: the product's own rules (`message` is the rule's); warnings `barcode-leading-zero` {value, code, format}, `barcode-check-digit` {value, expected}, `barcode-check-digit-product` {value, expected, productBarcode}, `letters-lost` {value}, `letters-lost-stored` {value, stored}, `text-misread` {value, reads, charset: `utf-8`, `mac-roman` or `cp850`}, `margin-below`, `margin-above` {margin, price, costPrice, limit, category}; `other`: none of these; show `message`.
         * @enum {string}
         */
        CatalogProblemKind: "file-empty" | "file-utf16" | "quote-not-closed" | "quote-in-cell" | "header-unknown" | "header-missing" | "header-twice" | "line-fields" | "barcode-shortened" | "francs-negative" | "francs-invalid" | "tax-invalid" | "date-invalid" | "boolean-invalid" | "integer-invalid" | "external-id-ambiguous" | "barcode-ambiguous" | "barcode-repeated" | "product-repeated" | "category-unknown" | "category-ambiguous" | "supplier-unknown" | "supplier-ambiguous" | "required" | "too-small" | "too-big" | "invalid-option" | "invalid-format" | "invalid-type" | "age-limit-conflict" | "barcode-leading-zero" | "barcode-check-digit" | "barcode-check-digit-product" | "letters-lost" | "letters-lost-stored" | "text-misread" | "margin-below" | "margin-above" | "other";
        CatalogErrorGroup: {
            /** @description The header's name of the column, or null for whole lines. */
            column: string | null;
            /** @description The problem in English, with the values of the lines left out (`"…"`). */
            message: string;
            kind: components["schemas"]["CatalogProblemKind"];
            /** @description The values of `kind`'s text that every line of the group shares (the accepted tax categories, a barcode's format, a character set); the values of the lines are left out. */
            params: {
                [key: string]: string;
            };
            /** @description How many lines have it. */
            count: number;
            /** @description The first 10 of those lines. */
            lines: number[];
        };
        CatalogFileWarning: {
            /** @description Line of the file, the header being line 1 (a spreadsheet's row number). */
            line: number;
            /** @description The header's name of the column, as the file writes it; null when the whole line is wrong. */
            column: string | null;
            /** @description What is wrong and what would be accepted, in English. */
            message: string;
            kind: components["schemas"]["CatalogProblemKind"];
            /** @description The values `kind`'s text needs (listed with `kind`), as text; `{}` when it needs none. */
            params: {
                [key: string]: string;
            };
            /** @description For a barcode, the code the file most likely meant; `?fixBarcodes=true` writes it instead of the cell. */
            suggested?: string;
        };
        CatalogFileChange: {
            /** @description Line of the file. */
            line: number;
            /**
             * @description The product field that changes.
             * @enum {string}
             */
            field: "id" | "externalId" | "barcode" | "name" | "price" | "taxCategory" | "category" | "supplier" | "depositProduct" | "depositProductLabel" | "salePrice" | "salePriceDateFrom" | "salePriceDateTo" | "costPrice" | "ageRestriction" | "minimumAge" | "showOnScreen" | "showOnScale" | "saleStop" | "deactivated" | "openInput" | "index" | "description" | "declarations" | "imageUrl";
            /** @description The value the product holds, as an export writes it; null when not set. */
            from: string | null;
            /** @description The value the row writes, as an export writes it. */
            to: string;
        };
        CatalogHeaderColumn: {
            /** @description The column's place in the file, the first being 1 (`preview` cells are at `position - 1`). */
            position: number;
            /** @description The header as the file writes it; empty for a column without one. */
            name: string;
            /** @description The product field the column is read as; `""` when it is ignored; `null` when the header names no field (an error on line 1). */
            field: ("id" | "externalId" | "barcode" | "name" | "price" | "taxCategory" | "category" | "supplier" | "depositProduct" | "depositProductLabel" | "salePrice" | "salePriceDateFrom" | "salePriceDateTo" | "costPrice" | "ageRestriction" | "minimumAge" | "showOnScreen" | "showOnScale" | "saleStop" | "deactivated" | "openInput" | "index" | "description" | "declarations" | "imageUrl") | "" | null;
            /**
             * @description Why: `name` (a field's name, or one of its German, French or Italian names), `kept` (the organization's kept mapping), `columns` (this import's `?columns=`); null when the header names no field.
             * @enum {string|null}
             */
            source: "name" | "kept" | "columns" | null;
        };
        CatalogPreviewRow: {
            /** @description Line of the file. */
            line: number;
            /** @description The row's cells as text, in the file's column order. */
            cells: string[];
        };
        CatalogImportRefusal: {
            statusCode: number;
            /** @description What went wrong, naming the field or resource. */
            message: string;
            /** @description ISO 8601 time of the error. */
            timestamp: string;
            /** @description Request path. */
            path: string;
            data: components["schemas"]["CatalogImportResult"];
        };
        /** @description The file's own headers mapped to product fields (`""`: ignore the column). Headers are compared without letter case, accents, spaces or punctuation. */
        CatalogColumnMap: {
            [key: string]: "id" | "externalId" | "barcode" | "name" | "price" | "taxCategory" | "category" | "supplier" | "depositProduct" | "depositProductLabel" | "salePrice" | "salePriceDateFrom" | "salePriceDateTo" | "costPrice" | "ageRestriction" | "minimumAge" | "showOnScreen" | "showOnScale" | "saleStop" | "deactivated" | "openInput" | "index" | "description" | "declarations" | "imageUrl" | "";
        };
        /** @description A store. Optional fields that are not set are absent. */
        Store: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description Often the brand. */
            name: string;
            address?: string;
            zipCode?: string;
            /** @description Tells the locations of the organization apart. */
            city?: string;
            vatNumber?: string;
            paymentCash?: boolean;
            paymentProviderA?: boolean;
            paymentProviderB?: boolean;
            paymentProviderBOffline?: boolean;
            paymentCashOffline?: boolean;
            showSupplier?: boolean;
            hideTextStart?: boolean;
            generalMargin?: number;
            customMessage?: string;
            /** @description Image URL, as a string or as `{ "src": string }`; returned in the form it was sent. */
            backgroundImageCart?: string | {
                src: string;
            };
            /** @description Image URL, as a string or as `{ "src": string }`; returned in the form it was sent. */
            backgroundImage?: string | {
                src: string;
            };
            backgroundColor?: string;
            backgroundFontColor?: string;
            playSound?: boolean;
            standardSound?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            adminMail?: string;
            showInfoButton?: boolean;
            /** @description Countdown of the kiosk screen; 0 or more. */
            deleteCountdown?: number;
            logoUrl?: string;
            languageMulti?: boolean;
            /**
             * @description Main language: "de", "en", "fr" or "it".
             * @enum {string}
             */
            languageMain?: "de" | "en" | "fr" | "it";
            /** @description Languages offered on the screen, each "de", "en", "fr" or "it". */
            languageSelector?: ("de" | "en" | "fr" | "it")[];
            /** @description Texts by language or key: a JSON object stored as given. */
            translations?: {
                [key: string]: unknown;
            };
            /** @description Extension: the store's own e-receipt address template, e.g. `https://shop.example/r/{orderId}`. A kiosk key's printed receipt may carry only this address as its QR code. */
            receiptUrl?: string;
            /** @description Extension: IANA time zone of the store, which decides its local day (daily report) and the time on its receipts. Absent means Europe/Zurich. */
            timeZone?: string;
            deleted: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            createdate: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            lastupdate: string;
            /** @description Organization id. */
            instance: string;
        };
        /** @description A new store. Unknown and read-only fields are refused; payment provider credentials are never accepted. */
        StoreCreate: {
            /** @description Often the brand. */
            name: string;
            address?: string;
            zipCode?: string;
            /** @description Tells the locations of the organization apart. */
            city?: string;
            vatNumber?: string;
            paymentCash?: boolean;
            paymentProviderA?: boolean;
            paymentProviderB?: boolean;
            paymentProviderBOffline?: boolean;
            paymentCashOffline?: boolean;
            showSupplier?: boolean;
            hideTextStart?: boolean;
            generalMargin?: number;
            customMessage?: string;
            /** @description Image URL, as a string or as `{ "src": string }`; returned in the form it was sent. */
            backgroundImageCart?: string | {
                src: string;
            };
            /** @description Image URL, as a string or as `{ "src": string }`; returned in the form it was sent. */
            backgroundImage?: string | {
                src: string;
            };
            backgroundColor?: string;
            backgroundFontColor?: string;
            playSound?: boolean;
            standardSound?: string;
            /** @description E-mail address (checked loosely: contains an @); empty means none. */
            adminMail?: string;
            showInfoButton?: boolean;
            /** @description Countdown of the kiosk screen; 0 or more. */
            deleteCountdown?: number;
            logoUrl?: string;
            languageMulti?: boolean;
            /**
             * @description Main language: "de", "en", "fr" or "it".
             * @enum {string}
             */
            languageMain?: "de" | "en" | "fr" | "it";
            /** @description Languages offered on the screen, each "de", "en", "fr" or "it". */
            languageSelector?: ("de" | "en" | "fr" | "it")[];
            /** @description Texts by language or key: a JSON object stored as given. */
            translations?: {
                [key: string]: unknown;
            };
            /** @description Extension: the store's own e-receipt address template, e.g. `https://shop.example/r/{orderId}`. A kiosk key's printed receipt may carry only this address as its QR code. */
            receiptUrl?: string;
            /** @description Extension: IANA time zone of the store, which decides its local day (daily report) and the time on its receipts. Absent means Europe/Zurich. */
            timeZone?: string;
        };
        /** @description Partial update: only the fields sent change; `null` clears an optional field. */
        StoreUpdate: {
            /** @description Often the brand. */
            name?: string;
            /** @description `null` clears it. */
            address?: string | null;
            /** @description `null` clears it. */
            zipCode?: string | null;
            /** @description Tells the locations of the organization apart. `null` clears it. */
            city?: string | null;
            /** @description `null` clears it. */
            vatNumber?: string | null;
            /** @description `null` clears it. */
            paymentCash?: boolean | null;
            /** @description `null` clears it. */
            paymentProviderA?: boolean | null;
            /** @description `null` clears it. */
            paymentProviderB?: boolean | null;
            /** @description `null` clears it. */
            paymentProviderBOffline?: boolean | null;
            /** @description `null` clears it. */
            paymentCashOffline?: boolean | null;
            /** @description `null` clears it. */
            showSupplier?: boolean | null;
            /** @description `null` clears it. */
            hideTextStart?: boolean | null;
            /** @description `null` clears it. */
            generalMargin?: number | null;
            /** @description `null` clears it. */
            customMessage?: string | null;
            /** @description Image URL, as a string or as `{ "src": string }`; returned in the form it was sent. */
            backgroundImageCart?: string | {
                src: string;
            };
            /** @description Image URL, as a string or as `{ "src": string }`; returned in the form it was sent. */
            backgroundImage?: string | {
                src: string;
            };
            /** @description `null` clears it. */
            backgroundColor?: string | null;
            /** @description `null` clears it. */
            backgroundFontColor?: string | null;
            /** @description `null` clears it. */
            playSound?: boolean | null;
            /** @description `null` clears it. */
            standardSound?: string | null;
            /** @description E-mail address (checked loosely: contains an @); empty means none. `null` clears it. */
            adminMail?: string | null;
            /** @description `null` clears it. */
            showInfoButton?: boolean | null;
            /** @description Countdown of the kiosk screen; 0 or more. `null` clears it. */
            deleteCountdown?: number | null;
            /** @description `null` clears it. */
            logoUrl?: string | null;
            /** @description `null` clears it. */
            languageMulti?: boolean | null;
            /**
             * @description Main language: "de", "en", "fr" or "it". `null` clears it.
             * @enum {string|null}
             */
            languageMain?: "de" | "en" | "fr" | "it" | null;
            /** @description Languages offered on the screen, each "de", "en", "fr" or "it". `null` clears it. */
            languageSelector?: ("de" | "en" | "fr" | "it")[] | null;
            /** @description Texts by language or key: a JSON object stored as given. `null` clears it. */
            translations?: {
                [key: string]: unknown;
            } | null;
            /** @description Extension: the store's own e-receipt address template, e.g. `https://shop.example/r/{orderId}`. A kiosk key's printed receipt may carry only this address as its QR code. `null` clears it. */
            receiptUrl?: string | null;
            /** @description Extension: IANA time zone of the store, which decides its local day (daily report) and the time on its receipts. Absent means Europe/Zurich. `null` clears it. */
            timeZone?: string | null;
            /** @description `true` soft-deletes; `false` restores. */
            deleted?: boolean;
        };
        /** @description An order. Optional fields that were never set are absent. */
        Order: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description The till's own order number, unique per store; equals `id` when none was given on creation. */
            orderId: string;
            /** @description Store id. */
            store: string;
            /** @description Order total in cents: sum of every line price and deposit. */
            price: number;
            /** @description For example `successful`. */
            paymentState: string;
            /** @description How the customer paid, e.g. `cash` or `card`. */
            paymentMethod?: string;
            /** @description Card brand or payment provider. */
            paymentBrand?: string;
            /**
             * Format: date-time
             * @description Time of the sale.
             */
            orderDate: string;
            /**
             * Format: date-time
             * @description Time of the payment transaction.
             */
            transactionDate?: string;
            /** @description The payment terminal's message. */
            transactionMessage?: string;
            /** @description Gift card used for the payment. */
            giftcardId?: string;
            /** @description true for a soft-deleted order. */
            deleted: boolean;
            /** @description Cents given back to the customer by card refunds of its payment; absent until one. With it `paymentState` is `refunded` or `partially-refunded`. */
            refunded?: number;
            /** @description The order lines. */
            products: components["schemas"]["OrderLine"][];
        };
        OrderLine: {
            /** @description Product id. */
            productId: string;
            /** @description Units sold; a decimal for weighed goods. */
            quantity: number;
            /** @description The product's name at the time of sale. */
            title: string;
            /** @description Gross line total in cents (unit price x quantity, VAT included). */
            price: number;
            /** @description price - tax, in cents. */
            netPrice: number;
            /** @description VAT contained in price: round(price x taxRate / (1 + taxRate)), in cents. */
            tax: number;
            /** @description VAT rate as a fraction (0.081), not percent. */
            taxRate: number;
            /** @description `product` for a line of a regular product. */
            type: string;
            /** @description Supplier id copied from the product; absent when the product has none. */
            supplier?: string;
            /** @description Category id copied from the product; absent when the product has none. */
            category?: string;
            /** @description Deposit line total in cents (product deposit x quantity); 0 when none. */
            deposit: number;
        };
        /** @description A sale to record. Unknown and read-only fields are refused. */
        OrderCreate: {
            /** @description Id of an active store of the organization. */
            store: string;
            products: components["schemas"]["OrderLineCreate"][];
            /** @description The till's order number, unique per store: a repeated POST with the same store, orderId and sale returns the first order and creates nothing; the same orderId at the same store with other lines or another orderDate is 409. Default: the new id. */
            orderId?: string;
            /** @description Default `successful`; a kiosk key may send only `successful`. */
            paymentState?: string;
            /**
             * Format: date-time
             * @description Time of the sale; default now. Decides whether a sale price applies.
             */
            orderDate?: string;
            /** @description How the customer paid, e.g. `cash` or `card`. */
            paymentMethod?: string;
            /** @description Card brand or payment provider. */
            paymentBrand?: string;
            /**
             * Format: date-time
             * @description Time of the payment transaction.
             */
            transactionDate?: string;
            /** @description The payment terminal's message. */
            transactionMessage?: string;
            /** @description Gift card used for the payment. */
            giftcardId?: string;
            /** @description Id of the approved card payment (`POST /payments`) that paid this sale: its amount must equal the order total; the order then takes `paymentState` `successful`, `paymentMethod` `card` and the card brand. One payment pays one order (409). A kiosk key records a `card` sale only with its payment (422). */
            payment?: string;
        };
        /** @description A line to record. Fields other than productId and quantity are for sales recorded elsewhere, stored as sold. */
        OrderLineCreate: {
            /** @description Id of an active product of the organization. When every line carries `title`, `price` and `taxRate`, the sale is recorded as sold: any product id, also of a deleted, stopped, deactivated or unknown product. */
            productId: string;
            /** @description Units sold; a decimal for weighed goods (0.5 = half a kilogram). At most 6 decimal places. */
            quantity: number;
            /** @description Name as sold; default: the product's name. */
            title?: string;
            /** @description Gross line total in cents as sold; default: unit price at orderDate x quantity. */
            price?: number;
            /** @description VAT rate as sold, a fraction; default: the rate of the product's taxCategory. */
            taxRate?: number;
            /** @description Deposit line total in cents as sold; default: product deposit x quantity. */
            deposit?: number;
        };
        /** @description Partial update: only the fields sent change. Lines and prices cannot change. */
        OrderUpdate: {
            paymentState?: string;
            /** @description How the customer paid, e.g. `cash` or `card`. */
            paymentMethod?: string;
            /** @description Card brand or payment provider. */
            paymentBrand?: string;
            /**
             * Format: date-time
             * @description Time of the payment transaction.
             */
            transactionDate?: string;
            /** @description The payment terminal's message. */
            transactionMessage?: string;
            /** @description Gift card used for the payment. */
            giftcardId?: string;
            /** @description true soft-deletes the order; false restores it. */
            deleted?: boolean;
            /** @description Cents given back by card refunds; a store PC sends it with the order's new `paymentState` after a refund. */
            refunded?: number;
        };
        ReceiptPrintResult: {
            /** @description true when the printer took the whole receipt. */
            printed: boolean;
            /** @description Id of the printer. */
            printer: string;
            /** @description Its name, as staff registered it. */
            name: string;
            /**
             * @description `ready`: the last receipt went out; `offline`: no connection (refused, timed out, unreachable); `paperOut`: the printer reported its paper end; `error`: the connection broke while sending.
             * @enum {string}
             */
            state: "ready" | "offline" | "paperOut" | "error";
            /** @description What went wrong, in words staff can act on; null when it printed. */
            message: string | null;
        };
        /** @description Which printer gets the receipt, and in which language. */
        ReceiptPrintRequest: {
            /** @description Id of a registered printer (`GET /printers`); a kiosk key may name only its own store's. */
            printer: string;
            /**
             * @description Language of the receipt; default the store's main language.
             * @enum {string}
             */
            language?: "de" | "en" | "fr" | "it";
            /** @description E-receipt address template, e.g. `https://shop.example/r/{orderId}`: shown and printed as a QR code with `{orderId}` filled in. */
            receiptUrl?: string;
        };
        PrinterCreate: {
            /** @description Id of the store the printer stands in; kiosk keys of that store may print on it. */
            store: string;
            /** @description What staff call it, e.g. "Kasse 1". */
            name: string;
            /** @description Host name or IP address of the printer on the store network: a private LAN address (10.x, 172.16-31.x, 192.168.x, fc00::/7) unless `PRINTER_ALLOW_ADDRESSES` allows more. */
            host: string;
            /**
             * @description TCP port of its raw printing service; default 9100. One of 9100-9102 unless `PRINTER_PORTS` allows more.
             * @default 9100
             */
            port: number;
        };
        /** @description A registered receipt printer and what the server remembers of it since it started. */
        PrinterStatus: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            store: string;
            name: string;
            host: string;
            port: number;
            /**
             * @description The last attempt's outcome (see PrinterState); `unknown` until the server reaches for the printer after it started.
             * @enum {string}
             */
            state: "ready" | "offline" | "paperOut" | "error" | "unknown";
            /** @description What went wrong, in words staff can act on; null when it printed or was not tried yet. */
            message: string | null;
            /**
             * Format: date-time
             * @description When the server last reached for it: a receipt, a day's report, or a check; null since the server started.
             */
            lastAttemptAt: string | null;
            /**
             * Format: date-time
             * @description When it last took a whole receipt or report.
             */
            lastPrintedAt: string | null;
            /** @description Id of the order of the last print; null when it was a day's report or none. */
            orderId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        TerminalCreate: {
            /** @description Id of the store the terminal stands in; kiosk keys of that store may take payments on it. */
            store: string;
            /** @description What staff call it, e.g. "Terminal Kasse 1". */
            name: string;
            /**
             * @description `nexo-local`: nexo messages in JSON over HTTPS, encrypted with the shared passphrase (Adyen Terminal API, local mode).
             * @enum {string}
             */
            protocol: "nexo-local";
            /** @description IP address of the terminal on the store network: a private LAN address unless `TERMINAL_ALLOW_ADDRESSES` allows more. */
            host: string;
            /**
             * @description Port of its Terminal API; default and only port allowed on the private LAN: 8443.
             * @default 8443
             */
            port: number;
            /** @description The terminal's POIID, e.g. `V400m-324688179`. */
            poiId: string;
            /** @description Identifier of the shared encryption key, as set up on the terminal. */
            keyIdentifier: string;
            /** @description Version of the shared encryption key. */
            keyVersion: number;
            /** @description Passphrase of the shared encryption key. Kept encrypted at rest, never answered or logged. */
            passphrase: string;
            /** @description PEM of the CA that signed the terminal's TLS certificate; the server trusts no other for this terminal. */
            certificate: string;
        };
        /** @description A registered card terminal, without its passphrase. */
        Terminal: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            store: string;
            name: string;
            /** @enum {string} */
            protocol: "nexo-local";
            host: string;
            port: number;
            poiId: string;
        };
        /** @description Whether the server reaches the terminal now: the kiosk offers *Card* only then. */
        TerminalCheck: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            terminal: string;
            /** @description true when the terminal answered a status query over its secured channel. */
            reachable: boolean;
            /** @description Why it could not be reached, in words staff can act on; null when it answered. */
            message: string | null;
        };
        /** @description A terminal's own card totals, to compare with the day's card sales. */
        TerminalTotals: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            terminal: string;
            /** @description The terminal's own totals since its last reconciliation, per brand. */
            totals: {
                /** @description Card brand as the terminal names it, e.g. `mc`, `visa`. */
                brand: string;
                /** @description Approved payments. */
                count: number;
                /** @description Approved minus reversed, in cents. */
                amount: number;
            }[];
        };
        /** @description A card payment attempt at a terminal. */
        Payment: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            store: string;
            /** @description Id of the terminal that takes it. */
            terminal: string;
            reference: string;
            /** @description Amount asked, in cents. */
            amount: number;
            /** @description Cents the terminal gave back so far (refunds, or the reversal of a refused approval); only what the terminal confirmed. */
            refunded: number;
            currency: string;
            /**
             * @description `pending`: sent to the terminal, no answer yet; `unknown`: the answer was lost, the server keeps asking the terminal; `approved`: the card was charged; `declined`: the terminal or the card refused, or the terminal was busy; `cancelled`: the customer or the kiosk cancelled before approval, or the terminal never got it; `refunding`: a refund (or the reversal of a refused approval) is out at the terminal, stored before it was sent; never final: the server asks the terminal until it tells, and meanwhile another refund of the payment, or an order naming it, answers 409; `refunded`: the whole amount went back (a refund, or a reversal of a refused approval); `partially-refunded`: part of it went back.
             * @enum {string}
             */
            state: "pending" | "unknown" | "approved" | "declined" | "cancelled" | "refunding" | "refunded" | "partially-refunded";
            /** @description Card brand the terminal reported, e.g. `mc`, `visa`; null before approval. */
            brand: string | null;
            /** @description Masked card number the terminal reported; null before approval. */
            maskedPan: string | null;
            /** @description What the terminal said, or why the server refused its answer, in words staff can act on. */
            message: string | null;
            /**
             * @description Extension: why a `declined` or `cancelled` attempt ended so, as a code a kiosk can act on; null for every other outcome and for a plain refusal or cancellation.
             * @enum {string|null}
             */
            reason: "terminal-busy" | "terminal-not-reached" | "unknown-to-terminal" | null;
            /** @description Id of the order this payment paid; null while no order names it (an approved payment without one is open: refund it, or record its sale). */
            order: string | null;
            /** @description Extension: the terminal approved another amount or currency than asked, so the server refused the approval and reverses it; null otherwise. */
            refusal: {
                /** @description Cents the terminal charged. */
                amount: number;
                /** @description Currency it charged in. */
                currency: string;
                /** @description The terminal confirmed the reversal; false: charged, reversal pending (the server keeps trying; staff may refund it). */
                reversed: boolean;
            } | null;
            /** @description Empty until the terminal answers. */
            receipt: {
                /** @description The terminal's customer receipt lines, exactly as it gave them. */
                customer: string[];
                /** @description The terminal's cashier (merchant) receipt lines. */
                cashier: string[];
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        PaymentCreate: {
            /** @description Store of the sale; a kiosk key pays at its own store only. */
            store: string;
            /** @description Amount to charge in cents; at most `PAYMENT_MAX_CENTS` (default 500000, CHF 5,000), else 400. */
            amount: number;
            /**
             * @description ISO 4217 currency; `CHF`.
             * @enum {string}
             */
            currency: "CHF";
            /** @description The sale's own id (the order's `orderId`), per store: one charge per sale. While the store has a payment of the reference that is `pending`, `unknown`, `approved`, `refunding`, `refunded` or `partially-refunded`, another answers 409 with that payment in `data`; a declined or cancelled one, or a refused approval the server reversed, does not block. */
            reference: string;
            /** @description Terminal id; needed only when the store has several. */
            terminal?: string;
        };
        PaymentRefund: {
            /** @description Cents to give back; default what is left of the payment. */
            amount?: number;
        };
        /** @description A store's takings of one local day: the figures of a till's closing report. */
        DailyReport: {
            /** @description Store id. */
            store: string;
            /** @description The local day, YYYY-MM-DD. */
            date: string;
            /** @description The store's time zone that decided which orders belong to the day. */
            timeZone: string;
            /** @description Orders in payment state `successful`, `partially-refunded`, `refunded`, not deleted, whose orderDate falls on the local day. */
            sales: number;
            /** @description Sum of their order totals (lines and deposits), less the card refunds confirmed on the day (`refunds`). In cents. */
            total: number;
            /** @description By payment method and brand, in that order; totals add up to `total`. */
            byPaymentMethod: components["schemas"]["PaymentTotal"][];
            /** @description By VAT rate, lowest first; gross adds up to `total - deposits`. */
            byTaxRate: components["schemas"]["TaxRateTotal"][];
            /** @description Sum of the deposit lines, outside VAT. In cents. */
            deposits: number;
            /** @description Extension of the contract: sale-price discounts granted. */
            discounts: {
                /** @description Lines sold at their sale price. */
                lines: number;
                /** @description Regular price minus sale price of those lines, the regular price read from today's catalog. In cents. */
                amount: number;
            };
            /** @description Extension of the contract: orders of the day in other payment states (e.g. failed), not in the totals. */
            otherPaymentStates: {
                paymentState: string;
                sales: number;
                /** @description Their order totals. In cents. */
                total: number;
            }[];
            /** @description Soft-deleted orders of the day, in any payment state; not in the totals. */
            deletedOrders: {
                /** @description Soft-deleted orders of the day. */
                sales: number;
                /** @description Their order totals. In cents. */
                total: number;
            };
            /** @description Extension of the contract: lines a kiosk key recorded that differ from the catalog (`reasons` says how), in orders that are not deleted and whose orderDate falls on the day or that were recorded on the day; oldest order date first. */
            priceDeviations: components["schemas"]["PriceDeviation"][];
            /** @description Extension of the contract: kiosk sales recorded on this day more than 30 minutes after their order date (an order date set back, or a sale sent again after an outage), not deleted; oldest recording first. Their lines count on the day of their order date. */
            lateSales: components["schemas"]["LateSale"][];
            /** @description Card refunds confirmed on this day, already taken off the totals. */
            refunds: {
                /** @description Card refunds of sales the terminal confirmed on this day, sales of any day. */
                refunds: number;
                /** @description What they gave back; already taken off `total`, the card rows of `byPaymentMethod`, `byTaxRate` (in proportion to each order's gross per rate) and `card`. In cents. */
                total: number;
            };
            /** @description The day's card payments that took money without a sale: approved without an order, or refused and not yet reversed; oldest first. */
            cardWarnings: components["schemas"]["CardWarning"][];
            /** @description Extension of the contract: card payments of the day (the store's local day, by when each payment was started) by brand, compared with the terminals' own totals. */
            card: {
                /** @description One line per brand either side knows, by brand name. */
                byBrand: components["schemas"]["CardBrandReconciliation"][];
                /** @description Sum of `byBrand`'s `total`. In cents. */
                total: number;
                /** @description Sum of the terminals' totals; `null` when a terminal of the store did not answer. In cents. */
                terminalTotal: number | null;
                /** @description `total - terminalTotal`; `null` when a terminal did not answer. In cents. */
                difference: number | null;
                /** @description The store's terminals asked for their totals (nexo reconciliation). */
                terminals: {
                    /** @description Terminal id (`GET /terminals`). */
                    id: string;
                    name: string;
                    /** @description The terminal gave its totals for the day. */
                    answered: boolean;
                    /** @description Why it did not, when it did not. */
                    message: string | null;
                }[];
            };
            /** @description orderDate of the first counted sale (UTC); `null` without sales. */
            firstSaleAt: string | null;
            /** @description orderDate of the last counted sale (UTC); `null` without sales. */
            lastSaleAt: string | null;
        };
        PaymentTotal: {
            /** @description As the orders carry it; `null` for orders without one. */
            paymentMethod: string | null;
            /** @description As the orders carry it; `null` for orders without one. */
            paymentBrand: string | null;
            /** @description Orders paid this way. */
            sales: number;
            /** @description Their order totals, deposits included. In cents. */
            total: number;
        };
        TaxRateTotal: {
            /** @description VAT rate as a fraction (0.081). */
            taxRate: number;
            /** @description Sum of the line prices at this rate (deposits apart). In cents. */
            gross: number;
            /** @description gross - tax. In cents. */
            net: number;
            /** @description Sum of the lines' tax, each rounded as the order stored it. In cents. */
            tax: number;
        };
        /** @description A kiosk sale line that differs from the catalog: recorded as sent, flagged for staff. */
        PriceDeviation: {
            /** @description The order's `id` (as `GET /orders/{orderId}` takes it). */
            orderId: string;
            productId: string;
            /** @description The line title as recorded. */
            title: string;
            quantity: number;
            /** @description The line price the kiosk sent and the order kept. In cents. */
            price: number;
            /** @description The catalog's price for that quantity (sale price within its window by the order date), in cents, as the catalog stood when the sale was recorded. `null` when the product is unknown. */
            catalogPrice: number | null;
            /** @description The tax rate the order kept, a fraction. */
            taxRate: number;
            /** @description The rate of the product's taxCategory. `null` when the product is unknown. */
            catalogTaxRate: number | null;
            /** @description The deposit the order kept for the line. In cents. */
            deposit: number;
            /** @description The product's deposit for that quantity, in cents. `null` when the product is unknown. */
            catalogDeposit: number | null;
            /** @description Why the line is flagged: `unknown-product` (no product with that id, letter case included), `price`, `tax-rate` or `deposit` (differs from the catalog's), `zero-total` (the line's total is 0 for a product that has a price). */
            reasons: ("unknown-product" | "price" | "tax-rate" | "deposit" | "zero-total")[];
            /** @description orderDate of the order (UTC). */
            orderDate: string;
            /** @description When the server recorded the order (UTC). */
            recordedAt: string;
        };
        /** @description A kiosk sale recorded long after its order date. */
        LateSale: {
            /** @description The order's `id`. */
            orderId: string;
            /** @description The order date the kiosk sent (UTC). */
            orderDate: string;
            /** @description When the server recorded it (UTC). */
            recordedAt: string;
            /** @description The order total. In cents. */
            total: number;
        };
        /** @description Money the terminal took that no sale accounts for: never hidden in a total. */
        CardWarning: {
            /**
             * @description `payment-without-order`: an approved payment of the day no order names (money taken, no sale recorded: record the sale or refund it); `reversal-pending`: the terminal approved another amount or currency than asked and has not confirmed the reversal yet (the customer was charged; the server keeps reversing it).
             * @enum {string}
             */
            kind: "payment-without-order" | "reversal-pending";
            /** @description Payment id (`GET /payments/{paymentId}`). */
            payment: string;
            /** @description What the terminal charged. In cents. */
            amount: number;
            currency: string;
            /** @description When the payment was started (UTC). */
            createdAt: string;
            /** @description The payment's message. */
            message: string | null;
        };
        CardBrandReconciliation: {
            /** @description Card brand as the terminal names it (VISA, MASTERCARD, …). */
            brand: string;
            /** @description Card payments of the day at this brand that the terminal approved, as this server recorded them (the store's terminals, refunded ones included). */
            payments: number;
            /** @description Their amounts, refunds deducted. In cents. */
            total: number;
            /** @description The terminals' own count of approved payments of this brand for the day; `null` when no terminal answered. */
            terminalPayments: number | null;
            /** @description The terminals' own amount of this brand for the day, refunds deducted. In cents. */
            terminalTotal: number | null;
            /** @description `total - terminalTotal`: 0 when both agree; `null` when no terminal answered. In cents. */
            difference: number | null;
        };
        /** @description Which store's day goes to which receipt printer, and in which language. */
        DailyReportPrintRequest: {
            /** @description Store id. */
            store: string;
            /** @description The store's local day, YYYY-MM-DD. */
            date: string;
            /** @description Id of a registered printer (`GET /printers`). */
            printer: string;
            /**
             * @description Language of the printout; default the store's main language.
             * @enum {string}
             */
            language?: "de" | "en" | "fr" | "it";
        };
        /** @description One identity check. Optional fields that were never set are absent. */
        IdentityLog: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description Whether access was granted. */
            access: boolean;
            /**
             * Format: date-time
             * @description Time of the check.
             */
            logDate: string;
            /** @description Organization id. */
            instance: string;
            /** @description Kind of check, as the kiosk names it. */
            logType?: string;
            /** @description Version of the app that made the check. */
            appVersion?: string;
            /** @description Store id; on create it must name a store of the organization (also a soft-deleted one). */
            store?: string;
            /** @description Document source, e.g. `swiss_id_card`, `swiss_drivers_license_old`, `swiss_drivers_license_qr`, `passport`. */
            source?: string;
            /** @description Who made the check. */
            user?: string;
            /** @description Birth date read from the document, as read. */
            birthDate?: string;
            /** @description Picture of the document. */
            imageUrl?: string;
            /** @description Raw MRZ or scan payload. */
            rawText?: string;
        };
        /** @description An identity check to record. Unknown and read-only fields are refused. */
        IdentityLogCreate: {
            /** @description Whether access was granted. */
            access: boolean;
            /**
             * Format: date-time
             * @description Time of the check; default now (a kiosk sends checks made offline with their own time).
             */
            logDate?: string;
            /** @description Kind of check, as the kiosk names it. */
            logType?: string;
            /** @description Version of the app that made the check. */
            appVersion?: string;
            /** @description Store id; on create it must name a store of the organization (also a soft-deleted one). */
            store?: string;
            /** @description Document source, e.g. `swiss_id_card`, `swiss_drivers_license_old`, `swiss_drivers_license_qr`, `passport`. */
            source?: string;
            /** @description Who made the check. */
            user?: string;
            /** @description Birth date read from the document, as read. */
            birthDate?: string;
            /** @description Picture of the document. */
            imageUrl?: string;
            /** @description Raw MRZ or scan payload. */
            rawText?: string;
        };
        /** @description Whether the identity is blocked; the blocked list itself never leaves the server. */
        IdentityVerdict: {
            /** @description true when the identity matches an active blocked identity of the organization. */
            blocked: boolean;
        };
        /** @description An identity read by a kiosk, to be checked against the blocked list on the server. */
        IdentityVerdictRequest: {
            /** @description Last name as read from the document. */
            lastName: string;
            /** @description Every given name as read, separated by spaces. */
            firstNames: string;
            /**
             * Format: date
             * @description Birth date as YYYY-MM-DD, as read from the document.
             */
            birthDate: string;
            /** @description Raw MRZ of the document. */
            rawText?: string;
        };
        /** @description An identity refused at every check. */
        BlockedIdentity: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /**
             * Format: date-time
             * @description When the identity was blocked.
             */
            date: string;
            comment: string;
            /** @description Raw MRZ of the document; absent when none was given. */
            rawMrz?: string;
            first_name: string;
            last_name: string;
            /** @description Absent when unknown. */
            birthDate?: string;
            /** @description true once unblocked with DELETE. */
            deleted: boolean;
        };
        /** @description An identity to block. `date` is set by the server. */
        BlockedIdentityCreate: {
            /** @description Why the identity is blocked. */
            comment: string;
            /** @description First name as on the document. */
            first_name: string;
            /** @description Last name as on the document. */
            last_name: string;
            /** @description Birth date as on the document; once set it can be changed but not cleared. */
            birthDate?: string;
            /** @description Raw MRZ of the document. */
            rawMrz?: string;
        };
        /** @description comment, first_name and last_name are required; birthDate is kept when omitted. */
        BlockedIdentityUpdate: {
            /** @description Why the identity is blocked. */
            comment: string;
            /** @description First name as on the document. */
            first_name: string;
            /** @description Last name as on the document. */
            last_name: string;
            /** @description Omit to keep the stored date; it cannot be cleared. */
            birthDate?: string;
        };
        /** @description Reconciliation with the upstream, for the organization of the key. */
        SyncStatus: {
            /** @description Whether this organization mirrors an upstream. */
            configured: boolean;
            /** @description Upstream base URL (incl. /api/v1); null when not configured. The key is never shown. */
            upstream: string | null;
            /**
             * @description `off`: sync not configured; `idle`: waiting for the next round; `pushing`/`pulling`: a round is running; `offline`: the upstream could not be reached, retried with backoff; `refused`: the upstream refused the key, nothing is sent until `sync configure` sets a new one.
             * @enum {string}
             */
            state: "off" | "idle" | "pushing" | "pulling" | "offline" | "refused";
            /** @description Local writes waiting to be pushed. */
            pending: number;
            /** @description Local writes the upstream refused, waiting for `sync retry` or `sync discard`. */
            parked: number;
            /**
             * Format: date-time
             * @description End of the last push that reached the end of the queue.
             */
            lastPushAt: string | null;
            /**
             * Format: date-time
             * @description Start of the last complete pull: the local catalog reflects the upstream as of then.
             */
            lastPullAt: string | null;
            /**
             * Format: date-time
             * @description Extension: start of the last complete full pull, which read the whole upstream catalog and removed what it no longer lists.
             */
            lastFullPullAt: string | null;
            /** @description Why the last round stopped early (upstream unreachable or key refused); null after a complete round. */
            lastError: string | null;
            /**
             * Format: date-time
             * @description Time of the oldest pending write; null when none waits.
             */
            oldestPendingAt: string | null;
            /** @description Extension: size of this server's database file in bytes (pages in use and free). */
            databaseBytes: number;
            /**
             * Format: date-time
             * @description Extension: when the server next deletes what is past its retention (pushed outbox entries, expired kept answers, soft-deleted records, old orders of a synced organization); null when no server has run on this data folder yet.
             */
            nextPurgeAt: string | null;
        };
        /** @description A local write the upstream refused, kept until retried or discarded. */
        ParkedEntry: {
            /** @description Outbox entry id, as `sync retry` and `sync discard` take it. */
            id: number;
            /** @enum {string} */
            operation: "create" | "update" | "delete";
            /** @description What was written: product, product-image, category, supplier, store, order, identity-log, blocked-identity. */
            resource: string;
            /** @description Local id of the record. */
            resourceId: string;
            /** @description HTTP status the upstream answered (0 when the entry could not be turned into a call). */
            status: number;
            /** @description The upstream's message. */
            message: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            parkedAt: string;
        };
        Retried: {
            /** @description Parked entries put back in the queue: 1. */
            retried: number;
        };
        Discarded: {
            /** @description Parked entries given up on: 1. The outbox keeps a record of it. */
            discarded: number;
        };
        /** @description A key of the organization. The secret is never shown again. */
        Key: {
            id: string;
            /**
             * @description `read`: reads everything; `write`: does everything (staff); `kiosk`: a self-checkout bound to one store, reads the catalog and its store, records that store's sales and identity checks; `scale`: reads products and categories.
             * @enum {string}
             */
            kind: "read" | "write" | "kiosk" | "scale";
            /** @description Store a device key is bound to; null when unbound. */
            store: string | null;
            /** @description Name given at creation; null when none. */
            name: string | null;
            /** @description false once revoked. */
            active: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description Last request made with the key, accurate to a minute (the server writes it at most once a minute per key); null when never used.
             */
            lastUsedAt: string | null;
        };
        KeyCreated: {
            success: boolean;
            /** @description Key id, for `DELETE /keys/{keyId}`. */
            id: string;
            /** @description The secret, shown this once: only its hash is stored. */
            key: string;
        };
        /** @description A new key. Unknown fields are refused. */
        KeyCreate: {
            /**
             * @description `read`: reads everything; `write`: does everything (staff); `kiosk`: a self-checkout bound to one store, reads the catalog and its store, records that store's sales and identity checks; `scale`: reads products and categories.
             * @enum {string}
             */
            kind: "read" | "write" | "kiosk" | "scale";
            /** @description Store the key is bound to: required for `kiosk`, allowed for `scale`, refused for `read` and `write`. */
            store?: string;
            /** @description What staff call the device, e.g. `Kiosk 2 by the door`. */
            name?: string;
        };
        /** @description The key the request was made with. */
        CurrentKey: {
            id: string;
            /**
             * @description `read`: reads everything; `write`: does everything (staff); `kiosk`: a self-checkout bound to one store, reads the catalog and its store, records that store's sales and identity checks; `scale`: reads products and categories.
             * @enum {string}
             */
            kind: "read" | "write" | "kiosk" | "scale";
            /** @description Store the key is bound to; a kiosk sells for this store. */
            store: string | null;
            name: string | null;
        };
        /** @description A sign-in of the staff page. Its secret travels only in the `staff_sign_in` cookie the answer sets (HttpOnly, SameSite=Strict), never in the body. */
        StaffSignIn: {
            success: boolean;
            /**
             * Format: date-time
             * @description When the sign-in ends by itself, a working day after it began; signing out or revoking the key ends it sooner.
             */
            expiresAt: string;
        };
        /** @description A store PC's state, sent to the upstream after its sync rounds. */
        Heartbeat: {
            /** @description The store PC's installation id: random, renewed by a restore or on a copied data folder. */
            device: string;
            /** @description Name of the PC: `DEVICE_NAME`, or its host name. */
            name: string;
            /** @description Version of the store server. */
            version: string;
            /** @description Upstream ids of the stores whose sales this PC recorded in the last 30 days. */
            stores: string[];
            /**
             * Format: date-time
             * @description End of its last push that reached the end of its queue (its clock).
             */
            lastPushAt: string | null;
            /**
             * Format: date-time
             * @description Start of its last complete pull (its clock).
             */
            lastPullAt: string | null;
            /** @description Local writes waiting to be pushed. */
            pending: number;
            /** @description Local writes this upstream refused, waiting for staff. */
            parked: number;
            /**
             * Format: date-time
             * @description Time of its oldest pending write.
             */
            oldestPendingAt: string | null;
            /**
             * Format: date-time
             * @description orderDate of its latest sale.
             */
            lastSaleAt: string | null;
            /** @description Receipt printers the PC printed on or checked since it started, with their last state. */
            printers: {
                name: string;
                /** @description `ready`, `offline`, `paperOut` or `error` (see PrinterStatus). */
                state: string;
            }[];
            /** @description Space left on the disk of its data folder, in bytes. */
            diskFreeBytes: number | null;
            /** @description Size of its database, in bytes. */
            databaseBytes: number | null;
            /** @description Its open alerts (conditions that lasted `ALERT_AFTER_MS`). Absent from PCs of versions before it. */
            alerts?: {
                /** @description Upstream id of the store concerned. */
                store: string;
                /** @description The condition, as `GET /alerts` names it. */
                kind: string;
                /**
                 * Format: date-time
                 * @description When the condition started (its clock).
                 */
                since: string;
                /** @description What the PC saw, in words. */
                detail: string;
            }[];
            /** @description True: the PC has a mail server and mails its alerts to the store itself; false: it has none and the upstream mails them. Absent from PCs of versions before it: the upstream mails none of their alerts. */
            mailsAlerts?: boolean;
        };
        /** @description A store PC syncing with this server, as it last reported. */
        FleetDevice: {
            /** @description The store PC's installation id: random, renewed by a restore or on a copied data folder. */
            device: string;
            /** @description Name of the PC: `DEVICE_NAME`, or its host name. */
            name: string;
            /** @description Version of the store server. */
            version: string;
            /** @description Upstream ids of the stores whose sales this PC recorded in the last 30 days. */
            stores: string[];
            /**
             * Format: date-time
             * @description End of its last push that reached the end of its queue (its clock).
             */
            lastPushAt: string | null;
            /**
             * Format: date-time
             * @description Start of its last complete pull (its clock).
             */
            lastPullAt: string | null;
            /** @description Local writes waiting to be pushed. */
            pending: number;
            /** @description Local writes this upstream refused, waiting for staff. */
            parked: number;
            /**
             * Format: date-time
             * @description Time of its oldest pending write.
             */
            oldestPendingAt: string | null;
            /**
             * Format: date-time
             * @description orderDate of its latest sale.
             */
            lastSaleAt: string | null;
            /** @description Receipt printers the PC printed on or checked since it started, with their last state. */
            printers: {
                name: string;
                /** @description `ready`, `offline`, `paperOut` or `error` (see PrinterStatus). */
                state: string;
            }[];
            /** @description Space left on the disk of its data folder, in bytes. */
            diskFreeBytes: number | null;
            /** @description Size of its database, in bytes. */
            databaseBytes: number | null;
            /** @description Its open alerts (conditions that lasted `ALERT_AFTER_MS`). Absent from PCs of versions before it. */
            alerts?: {
                /** @description Upstream id of the store concerned. */
                store: string;
                /** @description The condition, as `GET /alerts` names it. */
                kind: string;
                /**
                 * Format: date-time
                 * @description When the condition started (its clock).
                 */
                since: string;
                /** @description What the PC saw, in words. */
                detail: string;
            }[];
            /** @description True: the PC has a mail server and mails its alerts to the store itself; false: it has none and the upstream mails them. Absent from PCs of versions before it: the upstream mails none of their alerts. */
            mailsAlerts?: boolean;
            /**
             * Format: date-time
             * @description When this upstream last heard from the device (the upstream's clock).
             */
            lastSeenAt: string;
            /**
             * @description `offline`: no heartbeat for longer than the offline threshold; `parked`: the upstream refused some of its writes; `behind`: its oldest pending write is older than the behind threshold; `outdated`: it runs an older version than the newest one among the devices; `ok` otherwise. The first that applies, in that order.
             * @enum {string}
             */
            state: "ok" | "behind" | "parked" | "offline" | "outdated";
            /**
             * Format: date-time
             * @description For `offline`: its last heartbeat; null otherwise.
             */
            offlineSince: string | null;
        };
        /** @description A mail of the queue. */
        Mail: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /**
             * @description `daily-sales`: a supplier's sales of a day; `statement`: a settlement's statement; `alert`/`alert-resolved`: to the store's `adminMail`; `test`: `POST /mail/test`.
             * @enum {string}
             */
            kind: "daily-sales" | "statement" | "alert" | "alert-resolved" | "test";
            /** @description Recipient address(es). */
            to: string;
            subject: string;
            /**
             * @description `queued`: waiting for its first or next attempt; `sent`: the mail server accepted it; `failed`: the mail server refused it for good (`lastError` says why).
             * @enum {string}
             */
            state: "queued" | "sent" | "failed";
            /** @description Attempts so far. */
            attempts: number;
            /** @description The mail server's words (or the connection's problem) at the last failed attempt; null after a success. */
            lastError: string | null;
            /**
             * Format: date-time
             * @description When it was queued, in the transaction of what caused it.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the mail server accepted it.
             */
            sentAt: string | null;
        };
        /** @description The test mail as queued; follow it with `GET /mail`. */
        MailTestQueued: {
            data: components["schemas"]["Mail"];
        };
        /** @description A test mail to queue. */
        MailTest: {
            /** @description Where the test mail goes. */
            to: string;
        };
        /** @description The organization's mail server; it replaces `SMTP_URL` and `MAIL_FROM` for this organization. */
        MailSettings: {
            /** @description `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://user:password@host:465`. Stored sealed; never answered. */
            smtpUrl: string;
            /** @description Sender: `laden@example.ch` or `Laden Bern <laden@example.ch>`. */
            from: string;
        };
        MailQueued: {
            data: {
                /** @description Mails queued by this call. */
                queued: number;
            };
        };
        /** @description A day's supplier sales mails to queue now. */
        MailDaily: {
            /** @description The day whose sales go out, in each store's time zone. */
            date: string;
        };
        /** @description A condition that lasted `ALERT_AFTER_MS` or longer. */
        Alert: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description The store concerned. */
            store: string;
            /**
             * @description `terminal-unreachable`: the store's card terminal does not answer; `printer-error`: a receipt printer is out of paper, open or unreachable; `payment-without-order`: an approved card payment no order names; `upstream-unreachable`: head office not reached; `disk-low`: under 1 GiB free on the data disk; `store-pc-silent` (on a hub): a store PC of the store sent no heartbeat for `ALERT_AFTER_MS`. On a hub, the list also holds the store PCs' own alerts, as their heartbeats report them.
             * @enum {string}
             */
            kind: "terminal-unreachable" | "printer-error" | "payment-without-order" | "upstream-unreachable" | "disk-low" | "store-pc-silent";
            /**
             * Format: date-time
             * @description When the condition started.
             */
            since: string;
            /**
             * Format: date-time
             * @description When it ended; null while it lasts.
             */
            endedAt: string | null;
        };
        /** @description The organization's own account, which payout files pay from. */
        PayoutAccount: {
            /** @description Account holder as the bank knows it; the debtor of payout files (at most 70 characters). */
            name: string;
            /** @description IBAN of the account, with or without spaces; a QR-IBAN is refused (it takes only QR bills). */
            iban: string;
            /** @description The bank's BIC; optional in Switzerland. */
            bic?: string;
            /** @description Street and number. */
            street?: string;
            /** @description Postal code. */
            zipCode?: string;
            /** @description Town. */
            city?: string;
            /** @description ISO 3166 country code, e.g. `CH`. */
            country?: string;
        };
        SettlementCreate: {
            /**
             * Format: date-time
             * @description Takes the sales the server recorded before this instant; not in the future.
             */
            to: string;
            /** @description Only this store's sales; default every store. */
            store?: string;
        };
        SettlementSummary: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description 1, 2, 3 … per organization, without gaps. */
            number: number;
            /**
             * Format: date-time
             * @description Sales recorded before this instant were taken.
             */
            to: string;
            /** @description The store settled, or null for every store. */
            store: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            createdAt: string;
            totals: {
                /** @description Sum of the lines’ price less refunds, deposits excluded, in cents. */
                gross: number;
                /** @description The shop's margin in cents, rounded half up per supplier and store. */
                margin: number;
                /** @description gross - margin, in cents. */
                payout: number;
            };
        };
        /** @description What each supplier sold and is owed, in cents. */
        Settlement: {
            /** @description Document id: a random URL-safe string of 20 characters for records created here. */
            id: string;
            /** @description 1, 2, 3 … per organization, without gaps. */
            number: number;
            /**
             * Format: date-time
             * @description Sales recorded before this instant were taken.
             */
            to: string;
            /** @description The store settled, or null for every store. */
            store: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time; stored and returned in UTC with milliseconds.
             */
            createdAt: string;
            totals: {
                /** @description Sum of the lines’ price less refunds, deposits excluded, in cents. */
                gross: number;
                /** @description The shop's margin in cents, rounded half up per supplier and store. */
                margin: number;
                /** @description gross - margin, in cents. */
                payout: number;
            };
            suppliers: components["schemas"]["SettlementSupplier"][];
        };
        SettlementSupplier: {
            /** @description Sum of the lines’ price less refunds, deposits excluded, in cents. */
            gross: number;
            /** @description The shop's margin in cents, rounded half up per supplier and store. */
            margin: number;
            /** @description gross - margin, in cents. */
            payout: number;
            /** @description Supplier id. */
            supplier: string;
            /** @description The supplier's name. */
            name: string;
            /** @description The margin percent: the supplier's supplierMargin, else the store's generalMargin, else 0 (weighted when stores differ). */
            marginPercent: number;
            /** @description Number of lines behind the amounts (sales and later refunds). */
            lines: number;
            /**
             * @description Why no payout is made for this supplier, or null when it is in the payout file.
             * @enum {string|null}
             */
            payoutProblem: "payouts-disabled" | "no-iban" | "invalid-iban" | "nothing-to-pay" | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
