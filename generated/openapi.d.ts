/**
 * Generated from openapi.yaml and webhooks.yaml by `npm run generate`. Do not edit:
 * change the spec and regenerate. Code imports these types through src/api-types.ts.
 */

export interface paths {
    "/session/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a session
         * @description Returns everything the service knows about a session: the enriched network,
         *     location, browser and device facts, the bot behaviour counts, the risk signals
         *     and, for native SDK sessions, the mobile device facts.
         */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session/authenticate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Authenticate a session with an account
         * @description Ties a session to an account of the customer's, creates or updates the account
         *     from the input, and returns the decision, the scores, the session facts, the
         *     account's history and email intelligence, and the accounts linked to it.
         *
         *     The `lists` given in the account are applied before the decision is made; the
         *     response `lists` reports every list the account belongs to. Loose forms some clients
         *     send are taken as meant: `metadata: []` is `{}`, a `null` `group` is no group, and
         *     lower-case `expected_countries` are upper-cased.
         */
        post: operations["authenticateSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session/unauthenticated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate a session without an account
         * @description Evaluates a session that is not (yet) tied to an account, for example on a login
         *     page before the credentials are checked. The linked accounts are those reached
         *     through the session's device, browser and network.
         */
        post: operations["evaluateUnauthenticatedSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Create a verification session (query form)
         * @description The same as `POST /liveness/session`, in the form ID Check and Face Match clients
         *     already call: `id=true` starts an ID Check, otherwise a Face Match, for the SDK session
         *     in `referring_session_id` when given. This form has no account and no redirect URL
         *     (the result's `metadata.account_id` is null; `POST /liveness/enroll` ties it to an
         *     account afterwards). Each call starts a new session. A project with groups enabled
         *     gets `400` `groups_enabled`: a session without an account has no group. There is no
         *     `simulate` parameter (it is refused as unknown): a test project's `test_verification_…`
         *     account ids (docs/test-mode.md) force outcomes instead.
         *
         *     Although a `GET`, it creates a session (kept for compatibility: docs/compatibility.md),
         *     so only a full-access API key may call it: a read-only key gets `403`, and the console's
         *     session cookie is not a credential here (`401`). New integrations use
         *     `POST /liveness/session`.
         */
        get: operations["getVerificationSession"];
        put?: never;
        /**
         * Create a verification session
         * @description Starts a Face Match or ID Check session for an end user. Send the user to `url`, the
         *     hosted page, which carries an unguessable capture token. The session can be completed
         *     for 30 days; it then ends with `max_duration_exceeded`. Whatever way it ends, exactly
         *     one signed webhook is sent to the project's webhook URL. In a project with groups
         *     enabled the session needs an `account_id` (else `400` `groups_enabled`).
         */
        post: operations["createVerificationSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/{session_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a verification session (hosted page)
         * @description Called by the hosted page when the user presses Cancel: the session ends with
         *     `liveness_check_failed` and its webhook is queued. Public: the capture token in
         *     `token` authorises it. Cancelling an ended session changes nothing.
         */
        post: operations["cancelVerificationSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/{session_id}/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a capture (hosted page)
         * @description Called by the hosted page with one image of a step: the selfie, or for ID Check the
         *     front and back of the ID document. The image's type is decided by its first bytes
         *     (JPEG, PNG or WebP), not by `Content-Type`; at most 8 MB. It is stored encrypted at
         *     rest. A later capture of the same kind replaces the earlier one. Public: the capture
         *     token in `token` authorises it. An ended session takes no more captures (400).
         */
        post: operations["uploadVerificationCapture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/{session_id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a verification session (hosted page)
         * @description Called by the hosted page after the captures: the analysis engine examines them. A
         *     result ends the session with success (one webhook with the result in `data`); a
         *     failed attempt is counted and the user may retry (`status` `retry`) until the third,
         *     which ends the session with `face_match_failed`; an ID document that cannot be read
         *     ends it with `failed_to_process_id_scan`; when the web SDK's device data did not reach
         *     the service the session ends with `failed_to_collect_device_data`. When no analysis
         *     engine is installed the answer is 503 and the session stays open. Completing an ended
         *     session changes nothing and answers how it ended. Public: the capture token in
         *     `token` authorises it.
         */
        post: operations["completeVerificationSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/verify-face": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get the result of a Face Match session
         * @description Returns the result of a completed Face Match verification session: the same object
         *     that the `verification.face-match.completed` webhook carries in `data`. Media URLs
         *     in the result are signed afresh and valid for 60 minutes. A session with no result
         *     to give answers `400` with its reason in `error`.
         */
        post: operations["verifyFace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/verify-id": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get the result of an ID Check session
         * @description Returns the result of a completed ID Check verification session: the same object
         *     that the `verification.id-check.completed` webhook carries in `data`. Media URLs
         *     in the result are signed afresh and valid for 60 minutes. A session with no result
         *     to give answers `400` with its reason in `error`.
         */
        post: operations["verifyId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/enroll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enroll a verified face for an account
         * @description Ties a Face Match or ID Check session that ended with a result to one of the
         *     customer's accounts. Its face (and, for ID Check, its document) is then the account's
         *     enrolled face: later verifications of other accounts that show the same face or
         *     document are flagged `repeat_face` / `repeat_id` and list the account in `matches`,
         *     and `POST /liveness/verify-identity` compares new sessions with it. The session must
         *     be enrolled within 30 days of its creation. A session that is already the account's
         *     (created for it with `account_id`, or enrolled before) is enrolled again without
         *     change; a session tied to another account is refused. Erasing the account erases the
         *     session and its enrolled face.
         */
        post: operations["enrollAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveness/verify-identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compare a Face Match session with an account's enrolled face
         * @description A one-to-one check for step-up authentication: is the person of this completed Face
         *     Match session the one enrolled for the account (`POST /liveness/enroll`, or a session
         *     created for the account)? `match` is true when the session's face and one of the
         *     account's other enrolled faces are the same person, by the threshold the repeat-face
         *     flag uses. Nothing is written: the session is not enrolled by this call.
         */
        post: operations["verifyIdentity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/public/liveness-redirect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Send an end user straight to a new verification session (public link)
         * @description A link the customer can put in a page or an email without a backend call: each visit
         *     starts a new Face Match session (an ID Check with `id=true`) of the project, without
         *     an account, and redirects the browser to its hosted page. Public: the project id
         *     names the project, as the SDK's does, and no API key is sent. The result reaches the
         *     project's webhook; tie it to an account with `POST /liveness/enroll`.
         *
         *     Because anyone who has the link can start sessions, visits are rate limited per
         *     client address (`PUBLIC_REDIRECT_RATE_LIMIT_PER_IP`, default 10 a minute) and per
         *     project (`PUBLIC_REDIRECT_RATE_LIMIT_PER_PROJECT`, default 100 a minute), which bounds
         *     the sessions a link can create; unfinished ones end after 30 days as every session
         *     does. A project with groups enabled cannot use the link (`groups_enabled`): a session
         *     without an account has no group.
         */
        get: operations["redirectToVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /**
         * Get an account
         * @description The account as stored, its latest scores and decision, the lists it is on and its
         *     history (sessions, countries, devices and networks, email intelligence, signal
         *     averages). An unknown account is a `400` (`Account not found`).
         */
        get: operations["getAccount"];
        /**
         * Update an account
         * @description Updates an existing account with the same rules as `POST /session/authenticate`:
         *     a non-empty `expected_countries` replaces the stored list, an empty or omitted one
         *     leaves it; `group` needs groups enabled and cannot change; `lists` are added (and
         *     created on first use). The body's `id` must be the path's. An unknown account is a
         *     `400` (`Account not found`): accounts are created by authenticating a session.
         *     Loose forms some clients send are taken as meant: `metadata: []` is `{}`, a `null`
         *     `group` is no group, and lower-case `expected_countries` are upper-cased.
         */
        put: operations["putAccount"];
        post?: never;
        /**
         * Erase an account
         * @description Erases the account's personal data (identifiers, names, metadata), its links to
         *     sessions and its list memberships. The sessions themselves stay, without the account.
         *     The erasure is recorded in the audit log as `account.erased` (in the same transaction;
         *     without the account id or any of its data). The stored webhook events that named the
         *     account name `[erased]` in its place (`GET /webhooks/deliveries/{request_id}`; one not
         *     yet delivered is sent so), and their attempts no longer keep an answer that quoted it.
         */
        delete: operations["deleteAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an account's sessions
         * @description The ids of the sessions authenticated with the account, newest first.
         */
        get: operations["getAccountSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}/accounts-linked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the accounts linked to an account
         * @description The same linked accounts that `POST /session/authenticate?accounts_linked=true` reports, strongest first.
         */
        get: operations["getAccountLinkedAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}/ring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an account's ring of linked accounts
         * @description The account and the accounts linked to it, out to `hops` (1: the accounts linked to it;
         *     2: also those linked to them), each with its last decision, current label, lists,
         *     account score and what `block` or `allow` decides now; the links between them; and a
         *     summary: how many accounts the ring holds and how many (and what share) are `Fake`,
         *     on `block`, labelled `fraud` or labelled `legit`. Links are found as
         *     `GET /account/{account_id}/accounts-linked` finds them (the same link search and the
         *     project's `link_score_floor`). At most the 40 strongest accounts of each hop are kept
         *     (a hop-2 account ranked by its strongest link to a hop-1 account), so at most 81 accounts
         *     with the account itself; `summary.truncated` says when more were found. The edges are
         *     the links found from the account and from its hop-1 accounts, between kept accounts;
         *     links among hop-2 accounts are not searched. With groups on, only accounts of the
         *     account's group are kept. An unknown account is a `400` (`Account not found`).
         */
        get: operations["getAccountRing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}/ring/block": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Put an account's ring on the block list
         * @description Puts the accounts of the account's ring (those `GET /account/{account_id}/ring` returns
         *     for the same `hops`, the account itself included) on the `block` list, or only the
         *     `account_ids` given, which must all be in the ring (a `400` names those that are not).
         *     As `POST /list/block/account/{account_id}` does for each: an account on `allow` or
         *     `main_account` leaves it, and each membership changed queues its list event
         *     (`list.account_added`, `list.account_removed`). All in one transaction, recorded as one
         *     audit event, `ring.blocked`, on the account, naming how many accounts joined `block`
         *     and each of them. With `dry_run`, nothing is written: the answer says what the block
         *     would do (the console shows the count before asking to confirm).
         */
        post: operations["blockAccountRing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}/verifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an account's verification sessions
         * @description The account's Face Match and ID Check sessions, newest first (at most `limit`): how
         *     each ended, the result's decision, risk score and risk flags, and its captured images
         *     as signed URLs valid for 5 minutes (`/media/{id}?expires=…&signature=…`: an HMAC over
         *     the image's id and the expiry with the server's media key; no API key or cookie is
         *     needed to fetch one, and it is refused once expired or altered). Images erased with
         *     the account, or by the project's `retention_verification_media_days`, are gone:
         *     `media_erased` is then true and `images` empty. An unknown account is a `400`
         *     (`Account not found`); an erased one has no sessions left to show.
         */
        get: operations["listAccountVerifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}/label": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Label an account fraud or legit
         * @description Records that a person judged the account `fraud` or `legit`, with an optional note (at
         *     most 1000 characters). Labels are history: labelling an account again adds a label,
         *     and the newest is the account's current one (`label` of `GET /account/{account_id}`).
         *     Who (`api_key:` and the first 12 hex digits of the SHA-256 of the key, or `cli`) and
         *     when are recorded, and an audit event (`account.labelled`, `GET /audit`) is written in
         *     the same transaction. Labels feed the label report (`GET /labels/report`). Erasing the
         *     account (`DELETE /account/{account_id}`) deletes its labels. An account this project
         *     does not have is a `404`.
         */
        post: operations["labelAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/{account_id}/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an account's labels
         * @description The account's labels, newest first (the first is its current one). Pass `next_cursor`
         *     as `cursor` for the next page; it is null on the last page. An account this project
         *     does not have is a `404`.
         */
        get: operations["listAccountLabels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/labels/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Precision and recall of the scores against the labels
         * @description How the project's scores and decisions would have caught the accounts people labelled
         *     (`POST /account/{account_id}/label`), over the evaluations made from `from` (included)
         *     to `to` (excluded). Each session authenticated with a labelled account counts once per
         *     such account, by its latest evaluation, under the account's current label; sessions
         *     of unlabelled accounts are left out. Fraud is the positive class: at threshold `t` an
         *     evaluation is flagged when its `account_score` is at or above `t` (as
         *     `decision_threshold` decides `Fake`), and the decisions' row flags `Fake`. Then
         *     `precision = true_positives / (true_positives + false_positives)` (null when nothing
         *     is flagged) and `recall = true_positives / (true_positives + false_negatives)` (null
         *     when nothing is labelled fraud). The range is at most 92 days (default: the 30 days
         *     before now), and at most 100,000 evaluations are counted: past that, `truncated` is
         *     true and the counts cover the first 100,000 in (account, session) order.
         */
        get: operations["getLabelReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List and search the project's accounts
         * @description The project's accounts in `account.id` order, or with `sort=score` the riskiest first,
         *     filtered: every filter given must hold (docs/api-search.md). Pass `next_cursor` as
         *     `cursor` for the next page (with the same `sort`); it is null on the last page. A page
         *     may hold fewer than `limit` accounts (even none) while `next_cursor` is not null: each
         *     request examines at most 5,000 accounts of the index its filters start from, so that a
         *     rare filter costs more requests, never one long one. Accounts created while paging
         *     appear in a later page if their key sorts after the cursor; none is repeated or skipped.
         */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the project's accounts as CSV or NDJSON
         * @description Every account `GET /accounts` would list with the same filters, in the same order,
         *     streamed (read in batches, written as the client reads): `format=csv` (RFC 4180, a
         *     header row, a cell starting with `=`, `+`, `-`, `@`, tab or carriage return prefixed
         *     with `'` so that spreadsheets do not run it as a formula; `lists` joined with `;`) or
         *     `format=ndjson` (one `AccountSummary` per line). Bad input is a `400` before anything
         *     is sent; a failure after the first bytes ends the response early (a client sees an
         *     incomplete chunked response, never a silently short file).
         */
        get: operations["exportAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List and search the project's sessions
         * @description The project's sessions, newest `start_time` first (then by id), filtered: every filter
         *     given must hold (docs/api-search.md). Pass `next_cursor` as `cursor` for the next
         *     page; it is null on the last page. A page may hold fewer than `limit` sessions (even
         *     none) while `next_cursor` is not null: each request examines at most 5,000 sessions
         *     of the index its filters start from. Sessions stored while paging are never repeated
         *     and never make another session be skipped.
         */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the project's sessions as CSV or NDJSON
         * @description Every session `GET /sessions` would list with the same filters, in the same order,
         *     streamed as `GET /accounts/export` streams accounts (`account_ids` and `risk_signals`
         *     joined with `;` in CSV; one `SessionSummary` per NDJSON line).
         */
        get: operations["exportSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the project's lists
         * @description Every list of the project, the standard ones (`allow`, `block`, `main_account`) included, with its description and size.
         */
        get: operations["getLists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/list/{list_name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The list's name. */
                list_name: components["parameters"]["ListNameParam"];
            };
            cookie?: never;
        };
        /**
         * Get a list and its accounts
         * @description The list, its description and a page of its account ids in id order; pass the last
         *     id as `after` for the next page. An unknown list is a `400` (`List not found`).
         */
        get: operations["getList"];
        put?: never;
        /**
         * Create a custom list
         * @description Creates the list with its description (the body is optional). A list that exists
         *     already is a `400` (`List already exists`) and is left as it is.
         */
        post: operations["createList"];
        /**
         * Delete a custom list
         * @description Deletes the list and its memberships. The standard lists cannot be deleted, and an
         *     unknown list is a `400` (`List not found`).
         */
        delete: operations["deleteList"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/list/{list_name}/account/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The list's name. */
                list_name: components["parameters"]["ListNameParam"];
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add an account to a list
         * @description Adds the account (which must exist) to the list, creating a custom list on first use.
         *     The standard lists are mutually exclusive: adding an account to `allow`, `block` or
         *     `main_account` removes it from the other two.
         */
        post: operations["addAccountToList"];
        /**
         * Remove an account from a list
         * @description Removes the account from the list. An unknown list, or an account that is not on the
         *     list, is a `400` naming which.
         */
        delete: operations["removeAccountFromList"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/project": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the project's settings
         * @description The settings of the project the `x-api-key` belongs to. The webhook secret is never
         *     returned.
         */
        get: operations["getProject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the project's settings
         * @description Changes the members given and leaves the others as they are. The change and an audit
         *     event (`GET /audit`: which key, when, each member before and after) are written in
         *     one transaction; a request that changes nothing writes nothing. A new
         *     `decision_threshold` decides the next evaluation, a new `link_score_floor` links its
         *     accounts. Groups cannot be turned off once on
         *     (`groups_enabled: false` on a project with groups is a `400`); `webhook_url: null`
         *     removes the webhook URL. `webhook_events` replaces the list of webhook events the
         *     project is sent (webhooks.yaml; an unknown event type is a `400` naming the field).
         *     The `retention_*` members set how many days the worker keeps sessions, verification
         *     media and delivered webhooks (1 to 36500; `null` keeps them, the default); data past its
         *     period is removed by the worker's next pass (docs/deploy.md, "Retention").
         */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/project/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the project's webhook secret
         * @description Makes a new webhook secret and returns it, once: it cannot be read again. For the
         *     query's `grace_period_seconds` (default 86400, at most 604800; 0: none) the previous secret
         *     keeps signing every delivery beside the new one: `x-signature` then carries two `v1`,
         *     the new secret's first (`verifyWebhook` of the client package takes a list of secrets),
         *     so a receiver can switch secrets without refusing a webhook. A rotation during a
         *     grace period ends that one: the secret being replaced is the only previous one. The
         *     rotation is audited (`GET /audit`, `webhook_secret.rotated`; never a secret).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the project's audit events
         * @description The changes made to the project's settings, the labels set on its accounts
         *     (`account.labelled`) and the changes of its accounts' list memberships
         *     (`account.lists_changed`), newest first, through the API (`actor`
         *     `api_key:` and the first 12 hex digits of the SHA-256 of the key, never the key), the
         *     console (`operator:` and the operator's id) or the `trustgate` command (`cli`). Pass
         *     `next_cursor` as `cursor` for the next page; it is null on the last page.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the project's console operators
         * @description The people who sign in to the project's console, by email, disabled ones included
         *     (`disabled`): who the audit's and a label's `operator:<id>` is. Operators are added
         *     and disabled with `trustgate user add` and `trustgate user disable`.
         */
        get: operations["listOperators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the project's cases
         * @description The review queue: the project's cases, each an account (or a group of linked accounts)
         *     under review, opened by a rule's `open_case` action, an analyst or this API (docs/cases.md).
         *     By default the active ones (`open` and `in_review`), oldest first: the one waiting longest
         *     heads the queue. `sort=score` puts the riskiest first (the account score when the case
         *     opened), `sort=newest` the latest. Pass `next_cursor` as `cursor` for the next page, with
         *     the same filters and sort; it is null on the last page.
         */
        get: operations["listCases"];
        put?: never;
        /**
         * Open a case
         * @description Puts an account, or a group of linked accounts, under review: a case with the reason, the
         *     accounts' scores at this moment (the first account's latest evaluation) and status `open`,
         *     audited (`case.opened`). An account is in at most one active case: one already in one is a
         *     `409` naming that case. An account the project does not have is a `400` naming it.
         */
        post: operations["openCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cases/{case_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. */
                case_id: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        /**
         * Get a case with its notes
         * @description The case, and its notes oldest first.
         */
        get: operations["getCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Assign a case, or move it between open and in review
         * @description Changes the case's `status` (`open` or `in_review`; a closed case is reopened with
         *     `open`, unless one of its accounts is in another active case: `409`) and its `assignee`
         *     (an operator of the project, or null), audited (`case.updated`, each change before and
         *     after). With `expected_version`, the change is made only over that version (else `409`):
         *     two analysts cannot take the same case unseen. Closing is `POST /cases/{case_id}/close`.
         */
        patch: operations["updateCase"];
        trace?: never;
    };
    "/cases/{case_id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. */
                case_id: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a case with an outcome
         * @description Closes the case as `fraud` or `legit`. In one transaction: every account of the case is
         *     labelled with the outcome (`account.labelled`, the note as the label's note), put on
         *     `list` when one is given (`block` or `allow`; `account.lists_changed` and the list
         *     webhooks, as the List API's), the note is added to the case's notes, and the case is
         *     closed (`case.closed`). The next evaluation of each account sees the label and the list.
         *     A closed case is a `409`.
         */
        post: operations["closeCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cases/{case_id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. */
                case_id: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a note to a case
         * @description A note on the case (at most 2000 characters; personal data, deleted with the case's
         *     accounts), with who wrote it and when, audited (`case.noted`, never the text).
         */
        post: operations["addCaseNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's evaluations by day and decision, and the signals they raised
         * @description For each UTC day from `from` to `to` (both included, at most 90 days), how many
         *     evaluations were decided `Real` and `Fake`, and over the range how many raised each risk
         *     signal (most first; signals never raised are left out). The counts are kept as the
         *     evaluations are made (one row per day and count), so the answer reads a few rows a
         *     day whatever the project's size. Each server process writes its evaluations' counts every
         *     few seconds (`STATS_FLUSH_MS`), so the newest evaluations may not be counted yet, and a
         *     process killed without a graceful stop loses up to that interval of its evaluations from
         *     these counts (never from decisions). Evaluations written before this version are not counted.
         *     A day in the wrong form, `from` after `to`, or a longer range is a `400` naming the field.
         */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the project's webhook deliveries
         * @description The webhooks queued for the project (one per event: `request_id` is the event's id, sent
         *     as `x-event-id` on every attempt), newest first, each with its status (`pending`: waiting
         *     for its next attempt; `delivered`: a 2xx was answered; `failed`: the retry schedule ran
         *     out, or the target was refused) and how many attempts it took. Filters: `event_type`,
         *     `status`, and the time it was queued (`from` included, `to` excluded). Pass
         *     `next_cursor` as `cursor` for the next page (with the same filters); it is null on the
         *     last page. The event's body and its attempts are in getWebhookDelivery.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries/{request_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook delivery, its event and its attempts
         * @description The webhook whose event id (`x-event-id`) is `request_id`: its event as queued (the
         *     body's JSON; a verification's media URLs are signed afresh at each attempt, so the
         *     stored body has none), and every attempt, oldest first, with its time, the HTTP status
         *     answered (null when no answer came: a timeout, a refused connection, a target refused
         *     by the service's address policy), how long it took and the first 512 bytes of the
         *     receiver's answer (as the receiver sent them: keep secrets out of your webhook answers).
         *     Another project's webhook is a `404`.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries/{request_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook again
         * @description Queues the webhook again, due now: the **same** event with the **same** `request_id`
         *     (`x-event-id`) and body, signed afresh at its attempt, whatever its status (a delivered
         *     one is sent again; a pending one is sent now instead of at its next retry). Receivers
         *     de-duplicate on `x-event-id` (webhooks.yaml, **Delivery**), so a receiver that already
         *     processed the event answers 2xx and does nothing; one that lost it processes it. The
         *     attempt is numbered after the earlier ones and is listed with them. If it fails, it is
         *     retried only while the webhook's schedule allows (24 retries, 8 days from its first
         *     attempt); otherwise the webhook is `failed` again. Analysts and admins only; the
         *     answer is the delivery as queued. The replay is recorded in the audit log as
         *     `webhook.replayed`, in the same transaction. Another project's webhook is a `404`.
         */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the project's rules document
         * @description The rules document that authenticate and unauthenticated apply, with its version
         *     (counted up by each `PUT /rules`; `0` and no rules before the first).
         */
        get: operations["getRules"];
        /**
         * Replace the project's rules document
         * @description Replaces the rules document, counts its version up and records an audit event
         *     (`rules.updated`, the version before and after) in one transaction. The next
         *     evaluation in this process applies the new rules; other processes apply them
         *     within `API_KEY_CACHE_TTL_MS`, as other project settings. A document that is not
         *     valid is a `400` naming the path (for example `rules[2].when.all[0].field`) and the
         *     rule, and nothing is stored. With `expected_version`, the document is stored only
         *     over that version (else `409`): two editors cannot overwrite each other unseen.
         *     A `version` in the body (as `GET /rules` and `trustgate rules pull` give it) is ignored.
         *
         *     For API keys (automation, `trustgate rules push`, a GitOps pipeline whose review happens
         *     in the pull request). A console operator publishes through drafts only (four-eyes: `POST
         *     /rules/drafts`, then another admin's `POST /rules/drafts/{draft_id}/publish`): a console
         *     session's `PUT /rules` is a `403` pointing there, and nothing is stored.
         */
        put: operations["putRules"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign an operator in
         * @description Checks the operator's email and password (argon2id) and starts a console session: the
         *     answer sets the session cookie (`__Host-tg_session`: `Secure`, `HttpOnly`,
         *     `SameSite=Strict`, `Path=/`; `tg_session` without `Secure` when the server runs with
         *     `CONSOLE_INSECURE_COOKIE=1`, for plain-http development on localhost only) and carries
         *     the CSRF token that every state-changing request made with the cookie must send in
         *     the `x-csrf-token` header. A wrong password, an unknown email and a disabled operator
         *     get the same `401`. Failed sign-ins are limited per client address and per email
         *     (`CONSOLE_LOGIN_LIMIT_PER_IP`, `CONSOLE_LOGIN_LIMIT_PER_ACCOUNT` a minute); past a limit
         *     the answer is `429` with `Retry-After`, whatever the password.
         */
        post: operations["consoleLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign the operator out
         * @description Ends the console session of the cookie (it no longer signs anything in, here or in any
         *     other process) and clears the cookie. Needs the `x-csrf-token` header.
         */
        post: operations["consoleLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the signed-in operator
         * @description The operator of the cookie's session, the session's expiry and its CSRF token (so that a
         *     reloaded console page can go on sending it).
         */
        get: operations["getConsoleSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/sign-in-options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get how operators can sign in
         * @description What the console's sign-in page offers: the email and password form always, and a
         *     single sign-on button when the server is configured with an OpenID Connect provider
         *     (`OIDC_ISSUER`; docs/console-auth.md, "Single sign-on").
         */
        get: operations["getConsoleSignInOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/oidc/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start a single sign-on (OpenID Connect)
         * @description Sends the browser to the OpenID Connect provider's authorization endpoint (the
         *     authorization code flow with PKCE `S256`, a `state` and a `nonce`). The three are kept
         *     until the provider sends the browser back in a cookie of this sign-in only
         *     (`__Host-tg_oidc`, or `tg_oidc` with `CONSOLE_INSECURE_COOKIE=1`: `HttpOnly`,
         *     `SameSite=Lax` so that the provider's redirect back carries it, 10 minutes). `404` when
         *     no provider is configured; `503` when the provider's discovery document cannot be read.
         */
        get: operations["startConsoleOidcSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Finish a single sign-on (the provider's redirect back)
         * @description Where the provider sends the browser back (`OIDC_REDIRECT_URL`). The code is exchanged
         *     at the provider's token endpoint with the PKCE verifier of the sign-in's cookie, and the
         *     ID token is validated (signature, issuer, audience, expiry, `state`, `nonce`). The
         *     operator is the active one whose email is the token's `email`, which the provider must
         *     have verified (`email_verified`); the operator must exist already (`trustgate user add`,
         *     `--sso-only` for one without a password). Signed in, the answer sets the session cookie
         *     as `POST /console/login` does and sends the browser to the console; otherwise to the
         *     console's sign-in page with `sign_in_error` saying why: `expired` (no sign-in under way
         *     in this browser, or it took over 10 minutes), `refused` (the provider answered an
         *     error, e.g. the person cancelled), `failed` (the code or the ID token did not check
         *     out), `email_unverified`, `unknown_operator` (no active operator with that email). The
         *     sign-in's cookie is cleared either way. A provider may add parameters of its own
         *     (`session_state`, `iss`, …): they are accepted.
         */
        get: operations["finishConsoleOidcSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/evaluation/{request_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the receipt of an evaluation
         * @description The receipt of one authenticate or unauthenticated answer, by the `request_id` the
         *     answer carried: what the scores weighed (the inputs), the versions of the scoring
         *     constants and of the rules, each score's terms (the noisy-OR's pieces of evidence,
         *     docs/scoring.md), the threshold, what decided, and the rules that matched. The terms
         *     recompute to the answer's scores exactly: `value = (1 − Π (1 − p)ᶜᵒᵘⁿᵗ) · (1 −
         *     discount.p)`, rounded to 3 decimals (docs/rules.md, "A receipt read line by line").
         *     The receipt is rebuilt from what the session keeps of its latest evaluation (by the
         *     scoring constants of the service answering; `scoring_version` is the evaluation's): a
         *     session keeps one, so the receipt of an earlier evaluation of a session evaluated
         *     again, another project's request id, a `GET` request's id or a deleted session's
         *     evaluation is not found.
         */
        get: operations["getEvaluation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Backtest a draft rules document
         * @description Replays a draft rules document (and optionally a draft decision threshold) over the
         *     project's stored evaluations made in `[from, to)` (each session's latest evaluation, as
         *     the label report counts them; a range of at most 31 days), at most 10,000 of them
         *     (`truncated` says when there were more; they are taken oldest session first, so a
         *     truncated backtest covers the range's beginning), and answers how many
         *     decisions would change, in which direction, with examples, and how often each rule
         *     would match and decide. The scores replayed are exactly the evaluation's (rebuilt as
         *     its receipt is, `GET /evaluation/{request_id}`); the rules read them, the lists that
         *     weighed, the session's facts and signal scores, its signals' details, its linked
         *     accounts' match types and its account's details as they were at evaluation, but the
         *     account's address and metadata, read from the account as it is now. Over an evaluation
         *     recorded before evaluations kept them, a draft naming the signals' details, the match
         *     types or an `account.` field but `account.account.id` is a `400` naming its path and
         *     the evaluation. The `allow` and `block` lists keep their word, and a test project's forced
         *     outcomes are not the rules' to change, as at evaluation. With labelled accounts among
         *     them, the current decisions, the draft's and each rule's precision and recall against
         *     the accounts' current labels. A document that is not valid is a `400` naming the path
         *     and the rule. Nothing is stored. docs/rules.md, "Backtest".
         *
         *     A backtest is bounded (docs/rules.md, "What a backtest costs"): it replays in chunks
         *     that let the server answer other requests between them; it stops early, `truncated`,
         *     when its work (the evaluations times the draft's comparisons) reaches the server's
         *     budget or its time runs out (`truncated_by` says which); a draft whose comparisons alone
         *     exceed the work budget is a `400` naming `rules`; it stops when its client leaves; and
         *     at most `BACKTEST_CONCURRENCY_PER_PROJECT` of a project and `BACKTEST_CONCURRENCY` in
         *     all run at once in a server process: one more is a `429` whose `Retry-After` is when a
         *     running one is sure to have ended.
         */
        post: operations["testRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules/fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the fields a rule's condition can name
         * @description The fields of the rules language (src/domain/rules/fields.ts, the list the server checks
         *     documents against), each with its kind, the operators it takes and, where the contract
         *     gives the field a closed set, its values: what the console's rule builder offers in its
         *     pickers. `account.account.metadata.` is a prefix (`prefix: true`): any member of the
         *     account's metadata, compared as given. docs/rules.md, "Fields".
         */
        get: operations["listRuleFields"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count what each rule of a draft would have matched lately
         * @description How many of the project's evaluations of the last 7 days (to the server's now) each rule
         *     of a draft would have matched and decided: the backtest of `POST /rules/test` over that
         *     range (the same replay, bounds and places; at most 10,000 evaluations, oldest session
         *     first, `truncated` when there were more), answering only the counts. Nothing is stored.
         *     A document that is not valid is a `400` naming the path and the rule.
         */
        post: operations["previewRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the rules drafts, newest first
         * @description The project's drafts of the rules document (`POST /rules/drafts`), newest first, without
         *     their documents: each with its author, the version it was based on and its status:
         *     `pending` (waiting for an admin), `published`, `rejected`, or `superseded` (pending, but
         *     the rules were published past its base version since: it can no longer be published;
         *     propose it again over the current version). docs/rules.md, "Drafts and four-eyes".
         */
        get: operations["listRuleDrafts"];
        put?: never;
        /**
         * Propose a rules document for approval
         * @description Stores a whole rules document as a draft over `base_version` (the version the author
         *     read, `GET /rules`), checked as `PUT /rules` checks a document, and audits
         *     `rules.draft_created`. Nothing applies until an admin other than its author publishes it
         *     (`POST /rules/drafts/{draft_id}/publish`). A `base_version` that is not the current
         *     version is a `409`. A document that is not valid is a `400` naming the path and the rule,
         *     and nothing is stored.
         */
        post: operations["createRuleDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules/drafts/{draft_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a rules draft with its diff
         * @description The draft, its document, the version it was based on with that version's author, the
         *     current version, and the diff of the current document to the draft's, rule by rule
         *     (`added`, `removed`, `changed`, `moved`, each with the rule before and after).
         */
        get: operations["getRuleDraft"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules/drafts/{draft_id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a rules draft and publish it
         * @description An admin other than the draft's author approves it (four-eyes): the document is stored
         *     as the next version exactly as `PUT /rules` stores one, the draft becomes `published`
         *     with the approver, and `rules.published` is audited with the author and the approver,
         *     in one transaction. The draft's author (the same operator or API key) is refused with
         *     a `403` naming the four-eyes rule; a draft that is not pending, or whose base version
         *     is no longer the current one, is a `409`. Nothing is written when refused.
         */
        post: operations["publishRuleDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rules/drafts/{draft_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a rules draft, with a reason
         * @description An admin rejects a pending draft with a reason (shown to its author with the draft) and
         *     `rules.draft_rejected` is audited; nothing is published. A draft that is not pending is
         *     a `409`.
         */
        post: operations["rejectRuleDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a single-use challenge for the next session post
         * @description The web SDK asks for a challenge just before it posts a session, and binds it into the
         *     post (`integrity` in `POST /ingest/session`): an HMAC-SHA256, keyed with the
         *     challenge's `key`, over the post's own content. The challenge is short-lived (5
         *     minutes) and single-use: the first session post that carries it consumes it for that
         *     session; the same challenge on another session is `replayed_payload`, a post with no
         *     valid challenge or MAC is `forged_payload` (conditions of `device_risk`).
         *
         *     What this proves, and what it does not: a valid post was made, within the challenge's
         *     lifetime, by a client that asked this server for a challenge (a payload cannot be made
         *     offline, in bulk, or copied and edited, because the key never travels in a post), and
         *     it has not been changed since it was signed. It does **not** prove that the SDK ran,
         *     nor in a real browser, nor that its facts are true: the key is handed to whoever asks,
         *     as a browser cannot keep a secret. Every hand-made session costs a request that is
         *     rate-limited per address and project, and each challenge makes one session.
         *
         *     No body. The project is named as for `POST /ingest/session`.
         */
        post: operations["createIngestChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ingest/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create or update a session from an SDK
         * @description The SDK posts the facts it collected on the device. The first post creates the
         *     session; later posts with the same `session_id` update it: event counts never go
         *     down, and the identity facts of the first post (device, fingerprint, user agent,
         *     source) stay. A session accepts updates for 24 hours after it starts.
         *
         *     The client address is the connection's (or, behind a load balancer configured with
         *     `TRUST_PROXY`, the one in `X-Forwarded-For`). `navigator.sendBeacon` cannot set
         *     headers or a JSON content type, so the project may also be named by the `project_id`
         *     query parameter, and the body may be sent as `text/plain`; it is JSON either way.
         *
         *     The web SDK binds the post that makes a session to a single-use challenge
         *     (`POST /ingest/challenge`, then `integrity`); a web session made without a valid
         *     binding scores `forged_payload`, one made with a challenge that already made another
         *     session `replayed_payload`. The request's own `User-Agent`, `Sec-CH-UA*` and
         *     `Accept-Language` headers are kept and compared with what the SDK claims
         *     (`user_agent_header_mismatch`, `client_hints_header_mismatch`,
         *     `accept_language_mismatch`): all conditions of `device_risk` (docs/scoring.md).
         */
        post: operations["ingestSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health check
         * @description Reports whether the service can reach its database, and how old its network data is
         *     (geolocation and ASN databases, IP lists). Needs no API key; meant for load balancers,
         *     orchestrators and monitoring.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness check
         * @description Reports whether this process should be sent traffic: `200` once the database's migrations
         *     have all been applied, the IP data is loaded and, when the analysis engine is on
         *     (`ANALYSIS_ENGINE=local`), its models are loaded; `503` before that, when the models could
         *     not be loaded, and from the moment the process is asked to stop (it then finishes the
         *     requests under way). Both answers list each check. `/healthz` says whether the process is
         *     alive; this says whether it is ready. Needs no API key; meant for load balancers and
         *     orchestrators.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description This process's metrics in the Prometheus text exposition format (version 0.0.4): HTTP
         *     requests by operation and status with their durations, evaluations by kind and
         *     decision, each risk signal's and condition's raises, score distributions, the webhook
         *     outbox's depth and deliveries (outcome, attempts, latency), analysis durations, the IP
         *     data's and lists' ages, the database pool and Node's own (event-loop delay, memory, GC).
         *     docs/deploy.md lists the families and what to alert on.
         *
         *     Outside the Session API and meant for a Prometheus scraper, not for clients: on unless
         *     `METRICS=off` (then `404`). With `METRICS_TOKEN` set, only a request with
         *     `Authorization: Bearer <METRICS_TOKEN>` is answered (otherwise `401`); without it,
         *     anyone who reaches the port can read the metrics, so keep the path off the public
         *     proxy (deploy/nginx.conf refuses it) and scrape the service directly.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "verification.face-match.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A Face Match session completed
         * @description Sent once when a Face Match session completes: with `status: success` and the
         *     result in `data`, or with `status: error` and the reason in `error`.
         */
        post: operations["faceMatchCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "verification.id-check.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An ID Check session completed
         * @description Sent once when an ID Check session completes: with `status: success` and the
         *     result in `data`, or with `status: error` and the reason in `error`.
         */
        post: operations["idCheckCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "list.account_added": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An account was added to a list
         * @description Sent to projects subscribed to it when an account is added to a list through the List
         *     or Account API (not when it already was on it).
         */
        post: operations["listAccountAdded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "list.account_removed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An account was removed from a list
         * @description Sent to projects subscribed to it when an account is removed from a list through the
         *     List API, or from a standard list by adding it to another standard list (List or
         *     Account API). Deleting a whole list or erasing an account sends none.
         */
        post: operations["listAccountRemoved"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "evaluation.rule_matched": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rules matched in an evaluation
         * @description Sent to projects subscribed to it when one or more of the project's rules matched in an
         *     authenticate or unauthenticated evaluation (docs/rules.md): which rules, the decision
         *     and whether a rule set it, and the tags. One per evaluation, queued in its transaction.
         */
        post: operations["evaluationRuleMatched"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test event
         * @description Sent only when an operator runs `trustgate webhooks test`, to check that the endpoint
         *     is reachable and verifies signatures: signed like every webhook, sent once, never
         *     retried and not stored. It concerns no verification session (`session_id` is a fresh
         *     id that names none). Acknowledge it with a `2xx` and do nothing else; the command
         *     prints the status and body of the answer.
         */
        post: operations["webhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description The name of a risk signal of an evaluation (a member of its `risk_signals`).
         * @enum {string}
         */
        RiskSignalName: "device_risk" | "proxy" | "vpn" | "tor" | "spoofed_ip" | "datacenter" | "recent_fraud_ip" | "impossible_travel" | "device_network_mismatch" | "location_spoofing" | "ip_reputation";
        /**
         * @description An account as the search lists it: its members, the decision and score of its latest
         *     evaluated session (absent before its first), its current label, its history's totals
         *     and its lists.
         */
        AccountSummary: {
            account: components["schemas"]["StoredAccount"];
            decision?: components["schemas"]["Decision"];
            account_score?: components["schemas"]["Score"];
            /** @description The account's current label (`POST /account/{account_id}/label`); absent when it has none. */
            label?: components["schemas"]["LabelValue"];
            num_sessions: number;
            /** Format: date-time */
            first_seen?: string;
            /** Format: date-time */
            last_seen?: string;
            country?: components["schemas"]["CountryCode"];
            lists: components["schemas"]["ListName"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A page of accounts; `next_cursor` is null on the last page. */
        AccountPage: {
            request_id: string;
            accounts: components["schemas"]["AccountSummary"][];
            next_cursor: string | null;
        };
        /**
         * @description A session as the search lists it: where and when it started, the accounts it was
         *     authenticated with, and its latest evaluation (absent before its first).
         */
        SessionSummary: {
            session_id: string;
            account_ids: string[];
            /** Format: date-time */
            start_time: string;
            /** @enum {string|null} */
            source?: "web" | "ios" | "android" | null;
            device_id: string;
            ip_address: string;
            country_code?: components["schemas"]["CountryCode"];
            decision?: components["schemas"]["Decision"];
            account_score?: components["schemas"]["Score"];
            /** @description The risk signals its latest evaluation raised; empty before its first. */
            risk_signals: components["schemas"]["RiskSignalName"][];
            /**
             * @description The `request_id` of its latest evaluation, whose receipt `GET /evaluation/{request_id}`
             *     gives; absent before its first and once the receipt is forgotten (the account erased).
             */
            evaluation_request_id?: components["schemas"]["RequestId"];
            /** @description Where its IP address is located (`location.latitude`, to 4 decimals), when it is. */
            latitude?: number;
            /** @description Where its IP address is located (`location.longitude`, to 4 decimals), when it is. */
            longitude?: number;
        };
        /** @description A page of sessions; `next_cursor` is null on the last page. */
        SessionPage: {
            request_id: string;
            sessions: components["schemas"]["SessionSummary"][];
            next_cursor: string | null;
        };
        /**
         * Format: uuid
         * @description A session id, a lowercase UUID made by the SDK on the device.
         * @example 7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d
         */
        SessionId: string;
        /**
         * @description A string of a request: any Unicode text except U+0000 (NUL), which PostgreSQL cannot
         *     store, and unpaired UTF-16 surrogates (`\ud800`–`\udfff` alone in JSON), which are not
         *     Unicode. Refused with `400` naming the field; inside `metadata` both are accepted and
         *     stored escaped.
         */
        Text: string;
        /**
         * @description Free-form key/value object stored with the account: at most 64 members in each object
         *     and 64 items in each array, keys of at most 128 characters, nested at most three
         *     levels deep (`{"a": {"b": {"c": 1}}}`), and at most 16384 bytes as JSON (UTF-8).
         *     Its strings may hold any character (stored escaped).
         */
        Metadata: {
            [key: string]: components["schemas"]["MetadataValue"];
        };
        /** @description A member of `metadata`; an object or array here holds members of the next level. */
        MetadataValue: string | number | boolean | null | {
            [key: string]: components["schemas"]["MetadataInnerValue"];
        } | components["schemas"]["MetadataInnerValue"][];
        /** @description A member of an object or array in `metadata`; an object or array here holds scalars only. */
        MetadataInnerValue: string | number | boolean | null | {
            [key: string]: components["schemas"]["MetadataScalar"];
        } | components["schemas"]["MetadataScalar"][];
        /** @description A value of the deepest level of `metadata`. */
        MetadataScalar: string | number | boolean | null;
        /**
         * @description An ISO 3166-1 alpha-2 country code, upper case.
         * @example US
         */
        CountryCode: string;
        /**
         * @description The decision about the authenticity of the session or account.
         * @enum {string}
         */
        Decision: "Real" | "Fake";
        /** @description A risk score from 0 to 1; 1 is the riskiest. */
        Score: number;
        /**
         * @description The name of a list: any text of 1 to 64 characters (`US users` is a name) but NUL and
         *     unpaired UTF-16 surrogates, as in `Text`. `allow`, `block` and `main_account` are the
         *     standard lists of every project; other names are custom lists, created on first use.
         */
        ListName: string;
        /**
         * @description How two accounts are linked: `browser` (the same browser instance: the SDK's stored
         *     `device_id` came back; deterministic), `device` (the same hardware and rendering: the
         *     same `browser_fingerprint`; probabilistic), `network` (same IP address or subnet in a short window), `email`
         *     (same normalised address), `phone` (same E.164 number), `username`
         *     (case-insensitive), `name` (same first and last name), `mobile_id` and
         *     `apple_device_check` (native SDK device identifiers).
         * @enum {string}
         */
        MatchType: "browser" | "device" | "network" | "email" | "phone" | "username" | "name" | "mobile_id" | "apple_device_check";
        /**
         * @description The body of an error response: every error carries these two members, and all but
         *     the verification operations' coded `400`s (`LivenessError`, which adds `request_id`,
         *     `success` and `error`) carry nothing else.
         */
        ErrorBody: {
            /** @description The HTTP status, repeated in the body. */
            statusCode: number;
            /** @description What was wrong, naming the field and the rule for a `400`. */
            message: string;
        };
        /** @description The health of the service. */
        Health: {
            /**
             * @description Always `ok` in a `200` answer.
             * @constant
             */
            status: "ok";
            /**
             * @description Which database the service runs on.
             * @enum {string}
             */
            database: "sqlite" | "postgresql";
            data?: components["schemas"]["NetworkDataHealth"];
        };
        /** @description Whether the process is ready to serve, and each check behind that. */
        Readiness: {
            /**
             * @description `ready` (a `200` answer) when every check passes, `not_ready` (a `503`) otherwise.
             * @enum {string}
             */
            status: "ready" | "not_ready";
            checks: {
                /**
                 * @description Whether the database has every migration this version knows (`trustgate migrate`);
                 *     `unknown` when the database cannot be asked.
                 * @enum {string}
                 */
                migrations: "applied" | "pending" | "unknown";
                /**
                 * @description The geolocation and ASN databases.
                 * @enum {string}
                 */
                ip_data: "loaded" | "not_loaded";
                /**
                 * @description The analysis engine's face and document models: `off` when the engine is off
                 *     (`ANALYSIS_ENGINE=off`, not a reason to wait), `failed` when they could not be loaded
                 *     (the log says why).
                 * @enum {string}
                 */
                models: "loaded" | "loading" | "failed" | "off";
                /** @description The process was asked to stop (SIGTERM, SIGINT) and is finishing its requests. */
                stopping: boolean;
            };
        };
        /**
         * @description How old the data behind the network facts is: the geolocation and ASN databases, and each
         *     IP list (`trustgate iplist sync` refreshes the published ones). Present when the process
         *     serves sessions. Stale data does not make the service unhealthy; it is reported here and
         *     logged at start.
         */
        NetworkDataHealth: {
            geo: components["schemas"]["GeoDataHealth"][];
            ip_lists: components["schemas"]["IpListHealth"][];
            /**
             * @description The digest of each IP data file this process loaded, and on PostgreSQL the other nodes
             *     of the database that loaded a different one (docs/deploy.md, *Several nodes*).
             */
            files: components["schemas"]["DataFileHealth"][];
        };
        /** @description One IP data file as this process loaded it. */
        DataFileHealth: {
            /**
             * @description The city (location) database, the ASN database (each the shipped data or GEOIP_CITY_DB,
             *     GEOIP_ASN_DB) or the hosting ASNs' changes (HOSTING_ASNS_FILE; empty when unset).
             * @enum {string}
             */
            file: "city" | "asn" | "hosting_asns";
            /**
             * @description SHA-256 of the file's bytes as loaded (of several files in turn when the data is
             *     several, as the shipped data is), recomputed when the file is reloaded.
             */
            sha256: string;
            /**
             * @description Other nodes of the same PostgreSQL database, seen lately, that loaded a different file;
             *     always empty on SQLite (one node).
             */
            differing_nodes: {
                /** @description The node's name (its host name and a random id given at start). */
                node: string;
                sha256: string;
            }[];
        };
        /** @description One geolocation or ASN database. */
        GeoDataHealth: {
            /**
             * @description The city (location) database or the ASN (network) database.
             * @enum {string}
             */
            database: "city" | "asn";
            /**
             * @description The data shipped with the service, or the operator's own file (GEOIP_CITY_DB, GEOIP_ASN_DB).
             * @enum {string}
             */
            source: "shipped" | "operator";
            /**
             * Format: date-time
             * @description When the database was built, by its own metadata; null when it does not say.
             */
            built_at: string | null;
            /** @description Days since `built_at` (one decimal); null when that is unknown. */
            age_days: number | null;
        };
        /** @description One IP list, with all its sources (shipped, the operator's file, the synced copy). */
        IpListHealth: {
            /** @enum {string} */
            list: "tor" | "vpn" | "proxy" | "datacenter" | "fraud" | "relay";
            /** @description Addresses and blocks on the list now, all sources together. */
            entries: number;
            /**
             * Format: date-time
             * @description When `trustgate iplist sync` last swapped in the published list; null when never.
             */
            synced_at: string | null;
            /** @description Days since `synced_at` (one decimal); null when never synced. */
            age_days: number | null;
            /** @description The synced copy is older than IPLIST_STALE_DAYS (default 7). */
            stale: boolean;
        };
        /** @description The members of every form of the network. */
        NetworkFields: {
            /** @description IPv4 or IPv6 address of the session. */
            ip_address: string & (unknown | unknown);
            /** @description The internet service provider (the name of the address's autonomous system). */
            service_provider?: string;
            /**
             * @description The kind of network: `isp` (residential or business access), `mobile` (cellular),
             *     `hosting` (data centre or cloud), `education`, `government`, `private_relay`
             *     (an anonymising relay such as iCloud Private Relay).
             * @enum {string}
             */
            connection_type?: "isp" | "mobile" | "hosting" | "education" | "government" | "private_relay";
        };
        /** @description The network the session came from. */
        Network: components["schemas"]["NetworkFields"];
        /** @description The network as reported by authenticate and unauthenticated, with the AS number and subnet. */
        EvaluatedNetwork: components["schemas"]["NetworkFields"] & {
            /** @description Autonomous system number of the address. */
            asn?: number;
            /**
             * @description The announced subnet that holds the address, in CIDR notation.
             * @example 8.8.8.0/24
             */
            subnet?: string;
        };
        /** @description Where the session's IP address is, from the service's geolocation data. */
        Location: {
            /**
             * @description Continent code (`AF`, `AN`, `AS`, `EU`, `NA`, `OC`, `SA`).
             * @enum {string}
             */
            continent?: "AF" | "AN" | "AS" | "EU" | "NA" | "OC" | "SA";
            country_code?: components["schemas"]["CountryCode"];
            /** @description State or region. */
            state?: string;
            city?: string;
            /**
             * @description Postal code. Present whenever the address is located; empty when the geolocation
             *     data has no postal code for it. The DB-IP Lite data shipped with Trustgate has no
             *     postal codes at all: point `GEOIP_CITY_DB` at a MaxMind GeoIP2 or GeoLite2 City
             *     file to get them.
             */
            zip_code?: string;
            /** @description IANA time zone name, for example `America/New_York`. */
            timezone?: string;
            /** Format: float */
            latitude?: number;
            /** Format: float */
            longitude?: number;
        };
        /** @description The browser, from the user agent and the SDK. */
        Browser: {
            /** @description Browser name, for example `Chrome`. */
            type?: string;
            version?: string;
            /** @description The browser's preferred language, a BCP 47 tag. */
            language?: string;
            user_agent?: string;
            /** @description The browser's IANA time zone. */
            timezone?: string;
        };
        /**
         * @description The members every form of the device shares; the session's device and the result's
         *     summary add `memory` and `gpu`, each in its own way (absent or null when unreported).
         */
        DeviceFields: {
            /**
             * @description The kind of device.
             * @enum {string}
             */
            category?: "desktop" | "mobile" | "tablet" | "console" | "smarttv" | "wearable" | "embedded" | "other";
            /** @description Device type, for example the model (`iPhone`) or `Macintosh`. */
            type?: string;
            /** @description Operating system with its version, for example `Windows 10`. */
            os?: string;
            /** @description Number of CPU cores. */
            cpu_cores?: number;
        };
        /**
         * @description The device as summarised in verification results (without the screen size). `memory`
         *     and `gpu` are always present, as the published results carry them: null when the
         *     browser did not report them (Firefox and Safari report no memory).
         */
        DeviceSummary: components["schemas"]["DeviceFields"] & {
            /** @description Memory in GB; null when the browser did not report it. */
            memory: number | null;
            /** @description GPU information; null when the browser did not report it. */
            gpu: string | null;
        };
        /** @description The device of the session. */
        Device: components["schemas"]["DeviceFields"] & {
            /** @description Memory in GB; absent when the browser did not report it. */
            memory?: number;
            /** @description GPU information; absent when the browser did not report it. */
            gpu?: string;
            /** @description Screen height in pixels. */
            screen_height?: number;
            /** @description Screen width in pixels. */
            screen_width?: number;
        };
        /** @description Counts of user interaction events seen by the SDK during the session. */
        Bot: {
            mouse_num_events: number;
            click_num_events: number;
            keyboard_num_events: number;
            touch_num_events: number;
            clipboard_num_events: number;
        };
        /** @description The risk signals of every form of the session. */
        RiskSignalFields: {
            /** @description Automation, tampering, an emulator or rooted device, or a failed integrity check. */
            device_risk: boolean;
            proxy: boolean;
            vpn: boolean;
            /** @description The address is a Tor exit node. */
            tor: boolean;
            /** @description The browser revealed (through WebRTC) a public address other than the connection's. */
            spoofed_ip: boolean;
            /** @description The address belongs to a hosting network. */
            datacenter: boolean;
            /** @description The address (or its subnet) was used in the last 30 days by a blocked account or a session decided Fake. */
            recent_fraud_ip: boolean;
            /** @description The account or device moved faster than 900 km/h between consecutive sessions. */
            impossible_travel: boolean;
            /** @description The device's time zone or languages do not fit the network's country. */
            device_network_mismatch: boolean;
            /** @description The device's reported location contradicts the network's. */
            location_spoofing: boolean;
        };
        /** @description Which risk signals were detected in the session. */
        RiskSignals: components["schemas"]["RiskSignalFields"];
        /** @description The risk signals as reported by authenticate and unauthenticated, with `ip_reputation`. */
        EvaluatedRiskSignals: components["schemas"]["RiskSignalFields"] & {
            /** @description The address has a bad history in this service (Fake sessions, blocked accounts, many accounts). */
            ip_reputation: boolean;
        };
        /** @description The risk signal scores of every form of the session. */
        RiskSignalScoreFields: {
            device_risk: components["schemas"]["Score"];
            proxy: components["schemas"]["Score"];
            vpn: components["schemas"]["Score"];
            tor: components["schemas"]["Score"];
            datacenter: components["schemas"]["Score"];
            recent_fraud_ip: components["schemas"]["Score"];
            impossible_travel: components["schemas"]["Score"];
            device_network_mismatch: components["schemas"]["Score"];
            location_spoofing: components["schemas"]["Score"];
        };
        /** @description A score from 0 to 1 for each risk signal (there is no score for `spoofed_ip`). */
        RiskSignalScores: components["schemas"]["RiskSignalScoreFields"];
        /** @description The risk signal scores as reported by authenticate and unauthenticated, with `ip_reputation`. */
        EvaluatedRiskSignalScores: components["schemas"]["RiskSignalScoreFields"] & {
            ip_reputation: components["schemas"]["Score"];
        };
        /** @description Names of the conditions that were detected, for example `tor_exit_node` or `browser_tampering_detected`. */
        RiskSignalDetails: {
            network: string[];
            device: string[];
        };
        /**
         * @description Device facts from the native iOS or Android SDK; an empty object for other sessions.
         *     Every member may be null when the platform does not report it.
         */
        Mobile: components["schemas"]["MobileFields"];
        /** @description The members of the mobile device facts. */
        MobileFields: {
            /** @description Device brand. */
            brand?: components["schemas"]["Text"] | null;
            /** @description Device model. */
            model?: components["schemas"]["Text"] | null;
            /** @description Total RAM in GB. Null on Android. */
            system_memory_gb?: number | null;
            /** @description Number of boots. Null on iOS. */
            boot_count?: number | null;
            /** @description Days since the last boot. */
            system_uptime_days?: number | null;
            /** @description Battery level between 0 and 1. Null on Android. */
            battery_level?: number | null;
            /** @description The device's language preferences. */
            languages?: components["schemas"]["Text"][] | null;
            /** @description The platform's app integrity verdict. */
            oem_app_integrity?: components["schemas"]["IntegrityVerdict"] | null;
            /** @description The platform's device integrity verdict. */
            oem_device_integrity?: components["schemas"]["IntegrityVerdict"] | null;
        };
        /**
         * @description An integrity verdict of the device maker's attestation service.
         * @enum {string}
         */
        IntegrityVerdict: "passed" | "failed" | "unavailable";
        /** @description The members that every form of the session carries. */
        SessionFacts: {
            /**
             * @description The SDK that made the session. Cross-platform SDK sessions report their
             *     underlying platform. Null for sessions computed before the field existed.
             * @enum {string|null}
             */
            source: "web" | "ios" | "android" | null;
            /** @description Native SDK version. Null for web sessions. */
            source_version: string | null;
            /**
             * Format: date-time
             * @description When the session started.
             */
            start_time: string;
            /**
             * @description The best estimate of the real country behind the session: behind a proxy or VPN
             *     the country the device points to, otherwise `location.country_code`.
             */
            true_country_code?: string;
            /** @description The SDK's persistent identifier of the device. */
            device_id: string;
            location: components["schemas"]["Location"];
            browser: components["schemas"]["Browser"];
            device: components["schemas"]["Device"];
            bot: components["schemas"]["Bot"];
            risk_signal_details: components["schemas"]["RiskSignalDetails"];
            mobile: components["schemas"]["Mobile"];
        };
        /**
         * @description A session in its top-level form, as returned by `GET /session/{session_id}`: the
         *     session facts with the ids and the accounts the session was authenticated with.
         */
        Session: components["schemas"]["SessionFacts"] & {
            /** @description Ids of the accounts the session was authenticated with. */
            account_ids: string[];
            /** @description Id of this request. */
            request_id: string;
            /** @description Id of the project. */
            project_id: string;
            session_id: components["schemas"]["SessionId"];
            network: components["schemas"]["Network"];
            risk_signals: components["schemas"]["RiskSignals"];
            risk_signal_scores: components["schemas"]["RiskSignalScores"];
        };
        /**
         * @description The session as embedded in authenticate and unauthenticated responses: without the
         *     ids and `account_ids`, with the AS number and subnet and with `ip_reputation`.
         */
        EvaluatedSession: components["schemas"]["SessionFacts"] & {
            network: components["schemas"]["EvaluatedNetwork"];
            risk_signals: components["schemas"]["EvaluatedRiskSignals"];
            risk_signal_scores: components["schemas"]["EvaluatedRiskSignalScores"];
        };
        /** @description The members of an account that are read as sent (`AccountInput` adds those with loose forms). */
        AccountContactFields: {
            /**
             * @description Email of the account. Any text is accepted; whether it is a valid address is
             *     reported in `account.email.valid`.
             */
            email?: components["schemas"]["Text"];
            /**
             * @description Phone number in E.164 format, used for phone matching across accounts.
             * @example +14155550123
             */
            phone?: string;
            /** @description First name; combined with `last_name` for name matching. */
            first_name?: components["schemas"]["Text"];
            last_name?: components["schemas"]["Text"];
            /** @description Username, matched case-insensitively across accounts. */
            username?: components["schemas"]["Text"];
            /** @description Lists the account is added to during authentication; missing lists are created. */
            lists?: components["schemas"]["ListName"][];
        };
        /**
         * @description Countries the account is expected in. A non-empty list replaces the stored
         *     list; an empty or omitted list leaves the stored list unchanged.
         */
        ExpectedCountries: string[];
        /**
         * @description The account's group; accounts link only within their group. The project must
         *     have groups enabled, and an account cannot move to another group.
         */
        AccountGroup: components["schemas"]["Text"];
        /** @description The customer's identifier of the account. */
        AccountIdentifier: components["schemas"]["Text"];
        /**
         * @description The customer's account, as authenticate and `PUT /account/{account_id}` take it, in the
         *     loose forms some clients send as well (PHP encodes an empty map as an empty array):
         *     `metadata: []` is `{}`, a `null` `group` is no group, and lower-case
         *     `expected_countries` are upper-cased.
         */
        AccountInput: components["schemas"]["AccountContactFields"] & {
            id: components["schemas"]["AccountIdentifier"];
            expected_countries?: components["schemas"]["ExpectedCountries"];
            metadata?: components["schemas"]["Metadata"] | unknown[];
            group?: components["schemas"]["AccountGroup"] | null;
        };
        /**
         * @description An account for `PUT /account/{account_id}`: the same members as in authenticate, in the
         *     same loose forms, `id` included, which must be the path's.
         */
        AccountUpdate: components["schemas"]["AccountInput"];
        /** @description A session and the account it is authenticated with. */
        AuthenticateRequest: {
            account: components["schemas"]["AccountInput"];
            session_id: components["schemas"]["SessionId"];
        };
        /** @description The session to evaluate. */
        UnauthenticatedRequest: {
            session_id: components["schemas"]["SessionId"];
        };
        /** @description The verification session whose result is wanted. */
        VerifyRequest: {
            session_id: components["schemas"]["SessionId"];
        };
        /** @description What an SDK collected on the device. Counts are cumulative since the session started. */
        IngestSession: {
            session_id: components["schemas"]["SessionId"];
            /**
             * @description The SDK's platform.
             * @enum {string}
             */
            source: "web" | "ios" | "android";
            /** @description The native SDK's version; null for the web SDK. */
            source_version?: components["schemas"]["Text"] | null;
            /**
             * @description The SDK's persistent identifier, made once and kept in the SDK's own storage: on the
             *     web the browser instance (local storage with a cookie), in a native app the install.
             *     Links accounts as `browser`.
             */
            device_id: components["schemas"]["Text"];
            /**
             * @description The web SDK's fingerprint of the device's hardware and rendering (canvas, WebGL,
             *     fonts, screen, cores, memory…; not the time zone or languages): the same in every
             *     profile of one browser. Links accounts as `device`. Native apps leave it out. When
             *     the post carries `fingerprint_components`, the server derives the fingerprint from
             *     them itself and a posted one that differs is `fingerprint_mismatch`.
             */
            browser_fingerprint?: components["schemas"]["Text"];
            fingerprint_components?: components["schemas"]["FingerprintComponents"];
            user_agent?: components["schemas"]["Text"];
            client_hints?: components["schemas"]["ClientHints"];
            /** @description The browser's or device's preferred languages, BCP 47 tags, most preferred first. */
            languages?: components["schemas"]["Text"][];
            /** @description The device's IANA time zone. */
            timezone?: components["schemas"]["Text"];
            /** @description The device's offset from UTC in minutes (positive east of Greenwich). */
            timezone_offset_minutes?: number;
            screen?: {
                width: number;
                height: number;
            };
            cpu_cores?: number;
            /** @description Device memory in GB as the platform reports it (the web rounds to 0.25 … 8). */
            memory?: number;
            /** @description The GPU renderer string. */
            gpu?: components["schemas"]["Text"];
            /** @description Signs that the page is driven by automation. */
            automation?: {
                /** @description `navigator.webdriver`. */
                webdriver?: boolean;
                /** @description Other automation hints found, for example `headless_user_agent`. */
                signals?: components["schemas"]["Text"][];
            };
            /** @description Signs that the environment was tampered with, for example `browser_tampering_detected`. */
            tampering?: components["schemas"]["Text"][];
            /** @description Addresses the browser revealed through WebRTC. */
            webrtc_ips?: (string & (unknown | unknown))[];
            events?: components["schemas"]["IngestEvents"];
            input?: components["schemas"]["IngestInput"];
            mobile?: components["schemas"]["IngestMobile"];
            integrity?: components["schemas"]["IngestIntegrity"];
            /** @description The device's own location, when the user allowed it. */
            geolocation?: {
                latitude: number;
                longitude: number;
                accuracy_m?: number;
            };
        };
        /** @description User-agent client hints (`navigator.userAgentData`), where the browser has them. */
        ClientHints: {
            /** @description `navigator.userAgentData.brands`: brands with their major versions. */
            brands?: components["schemas"]["ClientHintsBrand"][];
            /**
             * @description The high-entropy `fullVersionList`: brands with their full versions. Browsers reduce
             *     the user agent's version to `MAJOR.0.0.0`; the session's `browser.version` comes from
             *     here when it is given.
             */
            full_version_list?: components["schemas"]["ClientHintsBrand"][];
            mobile?: boolean;
            platform?: components["schemas"]["Text"];
            platform_version?: components["schemas"]["Text"];
            model?: components["schemas"]["Text"];
        };
        /** @description A brand of the browser (`Chromium`, `Google Chrome`, `Microsoft Edge`, or a meaningless "GREASE" brand) and its version. */
        ClientHintsBrand: {
            brand: components["schemas"]["Text"];
            version: components["schemas"]["Text"];
        };
        /** @description Cumulative counts of interaction events since the session started. */
        IngestEvents: {
            mouse?: number;
            click?: number;
            keyboard?: number;
            touch?: number;
            clipboard?: number;
        };
        /**
         * @description How input arrived, as counts since the session started (cumulative, like `events`): only
         *     when keys went down and whether a click fell on its element's centre, never which key,
         *     what was typed or where on the page. Judged as `robotic_typing` and `centred_clicks`
         *     (docs/scoring.md).
         */
        IngestInput: {
            /** @description Intervals between consecutive key presses under 2 s (a held key's repeats and input-method composition left out). */
            key_intervals?: number;
            /** @description Of `key_intervals`, those under 30 ms. */
            fast_key_intervals?: number;
            /** @description Of `key_intervals`, those within 5 % (or 3 ms) of the interval before. */
            steady_key_intervals?: number;
            /** @description Clicks made with a pointer (mouse, pen or touch, not the keyboard) on an element at least 16 CSS pixels wide and high, or within one. */
            pointer_clicks?: number;
            /** @description Of `pointer_clicks`, those within one CSS pixel of the centre of the element clicked or of one of its three nearest ancestors. */
            centred_clicks?: number;
        };
        /** @description The native SDKs' device facts, with the integrity and identity facts only they can collect. */
        IngestMobile: components["schemas"]["MobileFields"] & {
            /** @description The app runs in an emulator or simulator. */
            emulator?: boolean | null;
            /** @description The device is rooted or jailbroken. */
            rooted?: boolean | null;
            /** @description A vendor identifier of the device (identifierForVendor, Android ID). */
            mobile_id?: components["schemas"]["Text"] | null;
            /** @description An Apple DeviceCheck token. */
            apple_device_check?: components["schemas"]["Text"] | null;
        };
        /** @description A single-use challenge (`POST /ingest/challenge`) and the key that signs the one post it is for. */
        IngestChallenge: {
            /** @description The challenge's id, sent back in `integrity.challenge`. */
            challenge: string;
            /** @description The HMAC-SHA256 key (32 bytes, lower-case hex). It is never sent back; the post carries only the MAC it makes. */
            key: string;
            /**
             * Format: date-time
             * @description The challenge is consumed by a session post before this time, or not at all.
             */
            expires_at: string;
        };
        /**
         * @description The post's binding to a challenge from `POST /ingest/challenge`. `mac` is the lower-case
         *     hex HMAC-SHA256, keyed with the challenge's `key` (its hex decoded to 32 bytes), of the
         *     post's canonical JSON: the whole body without `integrity`, object members sorted by
         *     name at every depth (the names are ASCII), members whose value is undefined left out, no white space, strings and numbers as
         *     JavaScript's `JSON.stringify` writes them, in UTF-8. A post that creates a web session
         *     without a valid one is `forged_payload`; a challenge that already made another
         *     session is `replayed_payload`. Native SDKs (`ios`, `android`) may omit it: their posts
         *     are checked only when they carry it.
         */
        IngestIntegrity: {
            /** @description The `challenge` of `POST /ingest/challenge`. */
            challenge: string;
            /** @description The HMAC-SHA256, lower-case hex. */
            mac: string;
        };
        /**
         * @description What the web SDK's `browser_fingerprint` is made of, in a compact form: the fingerprint
         *     is the lower-case hex MurmurHash3 (x86, 128-bit) of the UTF-8 canonical JSON of this
         *     object (the canonical form of `IngestIntegrity`). The server derives the session's
         *     fingerprint from it and checks it against the post's other facts (docs/scoring.md,
         *     `device_risk`). A member the browser cannot give is empty (`''`, `[]`, `0`).
         */
        FingerprintComponents: {
            /**
             * @description The MurmurHash3 (x86, 128-bit, lower-case hex) of the UTF-8 data URL of the SDK's
             *     test drawing on a 2D canvas; empty without a canvas.
             */
            canvas: string;
            /** @description The WebGL renderer (the unmasked one where the browser gives it), as in `gpu`. */
            gpu: components["schemas"]["Text"];
            /** @description The fonts of the SDK's list that the browser renders differently from every generic family. */
            fonts: components["schemas"]["Text"][];
            /**
             * @description In this order: `Math.acos(0.123)`, `Math.asinh(1)`, `Math.atanh(0.5)`,
             *     `Math.cbrt(100)`, `Math.cosh(1)`, `Math.expm1(1)`, `Math.sinh(1)`,
             *     `Math.tan(-1e300)`, `Math.log1p(10)`; empty when the engine lacks one (null for a
             *     result JSON cannot write).
             */
            math: (number | null)[];
            /** @description `screen.width`, `screen.height`, `screen.colorDepth`. */
            screen: number[];
            /** @description `navigator.hardwareConcurrency`. */
            cores: number;
            /** @description `navigator.deviceMemory` in GB. */
            memory: number;
            /** @description `navigator.platform`. */
            platform: components["schemas"]["Text"];
            /** @description `navigator.vendor`. */
            vendor: components["schemas"]["Text"];
            /** @description `navigator.maxTouchPoints`. */
            touch: number;
        };
        /** @description The stored session's id. */
        IngestSessionResponse: {
            session_id: components["schemas"]["SessionId"];
        };
        /** @description The decision and scores that authenticate and unauthenticated both return. */
        Evaluation: {
            project_id: string;
            session_id: components["schemas"]["SessionId"];
            /** @description Id of this request. */
            request_id: string;
            decision: components["schemas"]["Decision"];
            /** @description Overall risk score; the decision is `Fake` when it reaches the project's threshold. */
            account_score: components["schemas"]["Score"];
            /** @description Bot detection score. */
            bot: components["schemas"]["Score"];
            /** @description Multiple-accounts detection score; 0 for an account on the `main_account` list. */
            multiple_accounts: components["schemas"]["Score"];
            /** @description Score of the session's risk signals taken together. */
            risk_signals: components["schemas"]["Score"];
            /**
             * @description Number of linked accounts (of the account for authenticate, of the session for
             *     unauthenticated), capped at 1,500.
             */
            accounts_linked: number;
            /** @description Lists the account (authenticate) or the session's accounts (unauthenticated) belong to. */
            lists: components["schemas"]["ListName"][];
            session: components["schemas"]["EvaluatedSession"];
            /** @description The linked accounts; present only when `accounts_linked=true` is asked for. */
            linked_accounts?: components["schemas"]["LinkedAccount"][];
            rules?: components["schemas"]["EvaluationRules"];
        };
        /** @description The evaluation of a session authenticated with an account. */
        AuthenticateResponse: components["schemas"]["Evaluation"] & {
            /** @description Id of the account the session was authenticated with. */
            account_id: string;
            account: components["schemas"]["AccountDetails"];
        };
        /** @description The evaluation of a session without an account. */
        UnauthenticatedResponse: components["schemas"]["Evaluation"];
        /** @description A time-decayed average of each risk signal's score over the account's sessions. */
        SignalAverages: {
            device_risk: components["schemas"]["Score"];
            proxy: components["schemas"]["Score"];
            vpn: components["schemas"]["Score"];
            tor: components["schemas"]["Score"];
            spoofed_ip: components["schemas"]["Score"];
            datacenter: components["schemas"]["Score"];
            recent_fraud_ip: components["schemas"]["Score"];
            impossible_travel: components["schemas"]["Score"];
            device_network_mismatch: components["schemas"]["Score"];
            location_spoofing: components["schemas"]["Score"];
        };
        /** @description Counts over the day and the week before the account's `last_seen`: the distinct values among all the account's sessions started in that window (a device is the browser's hardware fingerprint, else the app's vendor id, else the SDK's stored id; a network is the address's /24 or /64 block), counted up to 10,000. */
        WindowCounts: {
            "1_day": number;
            "7_day": number;
        };
        /** @description What the service knows about the account's email address. */
        EmailIntelligence: {
            /** @description The address, normalised (lower case; dots and `+tag` removed where the provider ignores them). */
            email: string;
            /** @description The domain is a known disposable-address provider. */
            disposable: boolean;
            /** @description The domain is a free personal mail provider. */
            personal: boolean;
            /** @description The address is syntactically valid and its domain has a real public suffix. */
            valid: boolean;
            /**
             * @description The kind of domain: `relay` is a forwarding alias service that hides the owner's
             *     real address (for example Apple's Hide My Email at `privaterelay.appleid.com`, or
             *     Firefox Relay), known from a short list of such services' domains.
             * @enum {string}
             */
            domain_type: "personal" | "business" | "disposable" | "education" | "government" | "invalid" | "relay";
            /** @description From -1 (most trusted) to 1 (most risky). */
            email_score: number;
            /** @description Conditions that make the address more trustworthy, for example `email_age_greater_than_5_years`. */
            trust_signals: string[];
            /** @description Conditions that make the address riskier, for example `email_alias`. */
            risk_signals: string[];
            /** @description Number of the project's accounts with an address at the same domain. */
            num_account_from_domain: number;
        };
        /**
         * @description An account's history in this project. `last_session` is absent only for an account
         *     without sessions (one an earlier release's `PUT /account/{account_id}` made).
         */
        AccountHistory: {
            /** @description Number of sessions authenticated with the account. */
            num_sessions: number;
            /** Format: date-time */
            first_seen: string;
            /** Format: date-time */
            last_seen: string;
            /** @description Id of the account's most recent session. */
            last_session?: components["schemas"]["SessionId"];
            /** @description The country of the account's most recent session. */
            country?: components["schemas"]["CountryCode"];
            /** @description Every country the account's sessions came from. */
            countries: components["schemas"]["CountryCode"][];
            unique_devices: components["schemas"]["WindowCounts"];
            unique_networks: components["schemas"]["WindowCounts"];
            email?: components["schemas"]["EmailIntelligence"];
            risk_signal_average: components["schemas"]["SignalAverages"];
        };
        /** @description The account and its history in this project. */
        AccountDetails: components["schemas"]["AccountHistory"] & {
            /** @description The account as stored. */
            account: {
                id: string;
                email?: string;
                metadata: {
                    [key: string]: unknown;
                };
                /** @description The account's group; empty when it has none (the project has groups off). */
                group: string;
            };
            /** @description Id of the account's most recent session (authenticate's has one always). */
            last_session: components["schemas"]["SessionId"];
        };
        /** @description Another account linked to the account or session, and how. */
        LinkedAccount: {
            account_id: string;
            /** @description Confidence of the link, from 0 to 1. */
            score: components["schemas"]["Score"];
            email?: string;
            phone?: string;
            first_name?: string;
            last_name?: string;
            username?: string;
            expected_countries: components["schemas"]["CountryCode"][];
            /** Format: date-time */
            first_seen: string | null;
            /** Format: date-time */
            last_seen: string | null;
            /** @description The identifiers the two accounts share. */
            match_type: components["schemas"]["MatchType"][];
            lists: components["schemas"]["ListName"][];
            metadata: {
                [key: string]: unknown;
            };
        };
        /** @description An account's members as stored. */
        StoredAccount: {
            id: string;
            email?: string;
            phone?: string;
            first_name?: string;
            last_name?: string;
            username?: string;
            expected_countries: components["schemas"]["CountryCode"][];
            metadata: {
                [key: string]: unknown;
            };
            /** @description The account's group; empty when it has none (the project has groups off). */
            group: string;
        };
        /**
         * @description An account as the Account API reports it: its members, the scores and decision of its
         *     latest evaluated session (absent before its first), its lists, the number of accounts
         *     linked to it and its history.
         */
        AccountResponse: components["schemas"]["AccountHistory"] & {
            project_id: string;
            /** @description Id of this request. */
            request_id: string;
            account: components["schemas"]["StoredAccount"];
            /** @description The decision of the account's latest evaluated session. */
            decision?: components["schemas"]["Decision"];
            /**
             * @description The evaluation that gave the account its `decision` and scores, and when: its receipt
             *     is `GET /evaluation/{request_id}`. Absent before the first, and for accounts last
             *     evaluated by an earlier release. An addition to the published account shape.
             */
            last_evaluation?: {
                request_id: components["schemas"]["RequestId"];
                /** Format: date-time */
                created_at: string;
            };
            /** @description Absent when no list decides. An addition to the published account shape. */
            list_decision?: components["schemas"]["ListDecision"];
            account_score?: components["schemas"]["Score"];
            bot?: components["schemas"]["Score"];
            multiple_accounts?: components["schemas"]["Score"];
            risk_signals?: components["schemas"]["Score"];
            /** @description Number of accounts linked to the account, capped at 1,500. */
            accounts_linked: number;
            lists: components["schemas"]["ListName"][];
            /**
             * @description The account's current label (POST /account/{account_id}/label); absent when it has
             *     none. An addition to the published account shape.
             */
            label?: components["schemas"]["AccountLabel"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description The account that was erased. */
        AccountDeleted: {
            request_id: string;
            account_id: string;
            /** @constant */
            success: true;
        };
        /** @description An account's verification sessions, newest first. */
        AccountVerifications: {
            request_id: string;
            account_id: string;
            verifications: components["schemas"]["AccountVerification"][];
        };
        /**
         * @description One verification session of the account: its state, how it ended (`outcome`: `success`
         *     or the webhook's error code; null while open), the result's decision, risk score and
         *     flags (absent without a result: not ended, failed, or erased), and its images.
         */
        AccountVerification: {
            session_id: components["schemas"]["SessionId"];
            type: components["schemas"]["VerificationType"];
            /** @enum {string} */
            state: "open" | "ended";
            outcome: string | null;
            decision?: components["schemas"]["Decision"];
            risk_score?: components["schemas"]["Score"];
            risk_flags: components["schemas"]["RiskFlag"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            ended_at: string | null;
            /** @description The images and result were erased (retention or the account's erasure). */
            media_erased: boolean;
            /** @description The newest capture of each kind, as a signed URL valid for 5 minutes. */
            images: components["schemas"]["VerificationImage"][];
        };
        VerificationImage: {
            kind: components["schemas"]["CaptureKind"];
            /**
             * Format: uri
             * @description The image, on the configured public base URL; no credentials needed until `expires_at`.
             */
            url: string;
            /** Format: date-time */
            expires_at: string;
        };
        /** @description The ids of an account's sessions, newest first. */
        AccountSessions: {
            request_id: string;
            account_id: string;
            sessions: components["schemas"]["SessionId"][];
        };
        /**
         * @description What the account's lists decide now, whatever its last evaluation said: on `block`
         *     its next evaluation is `Fake`, on `allow` `Real` (unless a rule decides first, docs/rules.md).
         */
        ListDecision: {
            /** @enum {string} */
            list: "block" | "allow";
            decision: components["schemas"]["Decision"];
        };
        /** @description An account's ring of linked accounts, to one or two hops, with a summary. */
        AccountRing: {
            request_id: string;
            account_id: string;
            hops: number;
            /** @description The account (hop 0) first, then hop 1 and hop 2, each strongest first. */
            nodes: components["schemas"]["RingNode"][];
            edges: components["schemas"]["RingEdge"][];
            summary: components["schemas"]["RingSummary"];
        };
        /** @description An account of a ring. */
        RingNode: {
            account_id: string;
            /** @description 0 for the account asked about, 1 for those linked to it, 2 for those linked to them. */
            hop: number;
            /** @description The account's last decision; null before its first evaluation. */
            decision: components["schemas"]["Decision"] | null;
            /** @description The account's current label; null when it has none. */
            label: components["schemas"]["LabelValue"] | null;
            lists: string[];
            /** @description The account score of its last evaluation; null before its first. */
            account_score: components["schemas"]["Score"] | null;
            list_decision?: components["schemas"]["ListDecision"];
            /** @description Its strongest link to an account one hop nearer; absent for the account asked about. */
            link_score?: number;
        };
        /** @description A link between two accounts of a ring, found from `from`. */
        RingEdge: {
            from: string;
            to: string;
            match_type: components["schemas"]["MatchType"][];
            score: number;
        };
        /** @description How many accounts of the ring, and their share of its size (0 to 1, 4 decimals). */
        RingShare: {
            count: number;
            share: number;
        };
        /**
         * @description The ring's size (its accounts, the account asked about included) and how many of them
         *     were last decided `Fake`, are on `block`, are labelled `fraud` and labelled `legit`.
         */
        RingSummary: {
            size: number;
            fake: components["schemas"]["RingShare"];
            blocked: components["schemas"]["RingShare"];
            labelled_fraud: components["schemas"]["RingShare"];
            labelled_legit: components["schemas"]["RingShare"];
            /** @description More linked accounts were found than a hop keeps (40); the strongest are kept. */
            truncated: boolean;
        };
        /** @description Which of the ring's accounts to block, and whether only to count them. */
        RingBlockRequest: {
            /**
             * @description The ring's reach, as `GET /account/{account_id}/ring` takes it.
             * @default 2
             */
            hops: number;
            /** @description Only these accounts (each in the ring); all of the ring's when absent. */
            account_ids?: components["schemas"]["Text"][];
            /**
             * @description Say what would be done, and write nothing.
             * @default false
             */
            dry_run: boolean;
        };
        /** @description The accounts put on `block` (with `dry_run`, those that would be), how many joined it and how many were on it already. */
        RingBlocked: {
            request_id: string;
            account_id: string;
            hops: number;
            dry_run: boolean;
            /** @description The accounts blocked, in code-unit order. */
            account_ids: string[];
            /** @description How many joined `block` (with `dry_run`, would join it). */
            added: number;
            already_blocked: number;
        };
        /** @description The accounts linked to an account, strongest first (at most 1,500). */
        AccountLinks: {
            request_id: string;
            account_id: string;
            accounts_linked: components["schemas"]["LinkedAccount"][];
        };
        /** @description A list, its description and its size. */
        ListSummary: {
            name: components["schemas"]["ListName"];
            /** @description What the list is for (empty when it was created without one). */
            description: string;
            /** @description One of `allow`, `block`, `main_account`. */
            standard: boolean;
            num_accounts: number;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The project's lists. */
        Lists: {
            request_id: string;
            lists: components["schemas"]["ListSummary"][];
        };
        /** @description A project's settings (the webhook secret is never shown). */
        ProjectSettings: {
            request_id: string;
            project_id: string;
            name: string;
            /** @description An evaluation whose `account_score` is at or above it is decided `Fake` (lists aside). */
            decision_threshold: number;
            link_score_floor: components["schemas"]["LinkScoreFloor"];
            /** @description Whether accounts carry a `group`; once on, never off. */
            groups_enabled: boolean;
            /** @description Where the project's webhooks are sent; null when none. */
            webhook_url: string | null;
            /** @description A test project (docs/test-mode.md). */
            test: boolean;
            webhook_events: components["schemas"]["WebhookEvents"];
            retention_sessions_days: components["schemas"]["RetentionSessionsDays"];
            retention_verification_media_days: components["schemas"]["RetentionVerificationMediaDays"];
            retention_delivered_webhooks_days: components["schemas"]["RetentionDeliveredWebhooksDays"];
            /** Format: date-time */
            created_at: string;
        };
        /**
         * @description The confidence (`score`) a link between two accounts must reach to be a linked account:
         *     under it the pair is not listed in `linked_accounts`, not counted in `accounts_linked`,
         *     and does not weigh in `multiple_accounts`. 0.1 until the project sets its own; 0.01 at
         *     the least (a shared identifier worth less is not evidence). docs/scoring.md, "Linked
         *     accounts", says per match type what reaches it.
         */
        LinkScoreFloor: number;
        /** @description A retention period in days (1 to 36500); null keeps the data (the default). */
        RetentionDays: number | null;
        /**
         * @description Days a session is kept from its start, with its evaluation (stored on it), its facts and
         *     its links to accounts; the identifiers and account aggregates it fed are recomputed
         *     without it, and an account left without sessions is erased as `DELETE /account` erases
         *     it. Null: kept (docs/deploy.md, "Retention").
         */
        RetentionSessionsDays: components["schemas"]["RetentionDays"];
        /**
         * @description Days an ended verification session keeps its captured images, its result, its enrolled
         *     face and document keys and its delivered or failed webhook, from its creation. Null: kept.
         */
        RetentionVerificationMediaDays: components["schemas"]["RetentionDays"];
        /**
         * @description Days a delivered webhook (and its attempts) is kept from its creation; pending and failed
         *     ones are never removed by it. Null: kept.
         */
        RetentionDeliveredWebhooksDays: components["schemas"]["RetentionDays"];
        /** @description The settings to change; members left out stay as they are. */
        ProjectUpdate: {
            /** @description The project's name (not empty once trimmed). */
            name?: components["schemas"]["Text"];
            decision_threshold?: number;
            link_score_floor?: components["schemas"]["LinkScoreFloor"];
            /** @description `true` turns groups on; `false` is accepted only while they are off. */
            groups_enabled?: boolean;
            webhook_url?: components["schemas"]["Text"] | null;
            webhook_events?: components["schemas"]["WebhookEvents"];
            retention_sessions_days?: components["schemas"]["RetentionSessionsDays"];
            retention_verification_media_days?: components["schemas"]["RetentionVerificationMediaDays"];
            retention_delivered_webhooks_days?: components["schemas"]["RetentionDeliveredWebhooksDays"];
        };
        /** @description The new webhook secret, shown only now. */
        WebhookSecretRotated: {
            request_id: string;
            project_id: string;
            /** @description The new secret; keep it safe, it is not shown again. */
            webhook_secret: string;
            /**
             * Format: date-time
             * @description Until when deliveries are signed with the previous secret too; null for no grace period.
             */
            previous_secret_valid_until: string | null;
        };
        /**
         * @description A project's rules (docs/rules.md): evaluated in order after scoring; every enabled
         *     rule whose `when` holds takes its `then` actions.
         */
        RulesDocument: {
            /** @description The version `GET /rules` gave; ignored by `PUT /rules` (the service counts it). */
            version?: number;
            /** @description Store only over this version (else `409`). */
            expected_version?: number;
            rules: components["schemas"]["RuleDefinition"][];
        };
        /** @description One rule; `id` is unique in the document. */
        RuleDefinition: {
            id: string;
            description?: components["schemas"]["Text"];
            /**
             * @description A disabled rule is kept but never evaluated.
             * @default true
             */
            enabled: boolean;
            when: components["schemas"]["RuleCondition"];
            then: components["schemas"]["RuleActions"];
        };
        /**
         * @description Exactly one of: `all` (every condition holds), `any` (one does), `not`, or a
         *     comparison `{field, op, value}` of one of the evaluation's fields (a path into the
         *     authenticate and unauthenticated response; docs/rules.md lists them). A field the
         *     evaluation does not have (`account.` members in unauthenticated, an unknown country)
         *     makes every comparison false but `not_exists`. Nested at most 8 deep.
         */
        RuleCondition: {
            /** @description Holds when every condition holds. */
            all?: components["schemas"]["RuleCondition"][];
            /** @description Holds when one of the conditions holds. */
            any?: components["schemas"]["RuleCondition"][];
            not?: components["schemas"]["RuleCondition"];
            /** @example session.risk_signals.tor */
            field?: components["schemas"]["Text"];
            /**
             * @description `gt` `gte` `lt` `lte` compare numbers; `in` `not_in` take a list of values;
             *     `contains` asks whether a list field (`lists`, `account.countries`…) holds the value;
             *     `exists` and `not_exists` take no value.
             * @enum {string}
             */
            op?: "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "in" | "not_in" | "contains" | "exists" | "not_exists";
            value?: components["schemas"]["RuleValue"];
        };
        /**
         * @description A number, text, boolean or a list of them (`in`, `not_in`). One schema rather than a
         *     `oneOf` of a scalar and a list, so that a refusal names the item at fault: the text
         *     keywords apply to text, `items` to a list.
         */
        RuleValue: string | number | boolean | components["schemas"]["RuleScalar"][];
        /**
         * @description One value a field is compared with. Text follows `Text`'s rule (no U+0000, no unpaired
         *     surrogate: the pattern applies to text only).
         */
        RuleScalar: string | number | boolean;
        /**
         * @description What a matching rule does. `decision` sets the evaluation's decision (the first
         *     matching rule with one decides). The list actions change the account's lists in the
         *     evaluation's transaction (authenticate only: an unauthenticated evaluation has no
         *     account, and they do nothing there). Tags are returned and stored with the evaluation.
         */
        RuleActions: {
            decision?: components["schemas"]["Decision"];
            add_to_lists?: components["schemas"]["ListName"][];
            remove_from_lists?: components["schemas"]["ListName"][];
            tags?: components["schemas"]["RuleTag"][];
            /**
             * @description `true`: the evaluated account is put under review, a case opened by the rule (its
             *     description, or its id, as the reason) with the evaluation's scores and signals, in the
             *     evaluation's transaction. Nothing when the account is already in an active case, and in
             *     unauthenticated evaluations (docs/cases.md).
             */
            open_case?: boolean;
        };
        /** @description A label a matching rule puts on the evaluation. */
        RuleTag: string;
        /** @description The project's rules document and its version. */
        Rules: {
            request_id: string;
            /** @description Counted up by each `PUT /rules`; 0 before the first. */
            version: number;
            rules: components["schemas"]["RuleDefinition"][];
            /**
             * Format: date-time
             * @description When this version was stored; null for version 0.
             */
            updated_at: string | null;
        };
        /**
         * @description The project's rules as this evaluation applied them (an addition beyond the session
         *     interface; docs/rules.md).
         */
        EvaluationRules: {
            /** @description The version of the rules document applied; 0 when the project has none. */
            version: number;
            /** @description The ids of the rules that matched, in the document's order. */
            matched: string[];
            /** @description The id of the rule that set the decision; null when the scores and lists decided. */
            decided_by: string | null;
            /** @description The matching rules' tags, each once, in order. */
            tags: components["schemas"]["RuleTag"][];
        };
        /**
         * @description What set a decision: `threshold` (account_score ≥ threshold is Fake), `list` (`block`
         *     Fake, `allow` Real), `rule` (its id), or `test_mode` (a test project's account id forced
         *     the scores; then the list in `list` decided, or else the threshold).
         */
        DecisionSource: {
            /** @enum {string} */
            source: "threshold" | "list" | "rule" | "test_mode";
            list: string | null;
            rule: string | null;
        };
        /**
         * @description The id of a request, as its answer's `request_id`: the service's (a UUID) or the
         *     caller's own `x-request-id` when it sent a valid one.
         * @example 2e8a4c6f-0b1d-4e3f-a5c7-9d1e3f5a7b9c
         */
        RequestId: string;
        /**
         * @description One piece of evidence of a score: `p = weight · strength`, the most it raises the score
         *     alone. `count` terms alike (the linked accounts of one link score) count as many times.
         */
        ScoreTerm: {
            /**
             * @description The evidence: a constant's name in docs/scoring.md (`base`, `automation`, `crawler`,
             *     `tampering`, `no_interaction`; a risk signal; `linked_account`; `bot`, `risk_signals`,
             *     `multiple_accounts`, `email_risk`, `email_trust`), or `test_mode` for a score a test
             *     project's account id forced.
             */
            name: string;
            /** @description The constant's weight (docs/scoring.md), 0..1. */
            weight: number;
            /** @description How strongly the evidence is present, 0..1 (1 or 0 for a yes/no condition). */
            strength: number;
            /** @description `weight · strength`, held to 0..1. */
            p: number;
            /** @description Whether the term weighed at all (`p > 0`). */
            raised: boolean;
            /** @description How many times the term counts. */
            count: number;
        };
        /**
         * @description How one score was computed: `value = (1 − Π (1 − pᵢ)^countᵢ) · (1 − discount.p)`, the
         *     product over the terms in their order, held to 0..1; the answer gives `value` rounded
         *     to 3 decimals.
         */
        ScoreBreakdown: {
            /** @description The score unrounded. */
            value: number;
            terms: components["schemas"]["ScoreTerm"][];
            /** @description account_score's trusted-email discount; null for the other scores. */
            discount: components["schemas"]["ScoreTerm"] | null;
        };
        /**
         * @description What the scores weighed beyond the session's signal scores (the `risk_signals` terms'
         *     strengths): the bot evidence, the email's score, the lists and the linked accounts (the
         *     `multiple_accounts` terms), as the evaluation kept them.
         */
        ReceiptInputs: {
            /** @description true for authenticate (a form was submitted), false for unauthenticated. */
            interactive: boolean;
            /** @description The SDK found automation (webdriver, headless, driver globals). */
            automation: boolean;
            /** @description The user agent is a crawler or HTTP library. */
            crawler: boolean;
            /** @description The interaction doubt from the interaction counts, 0..1 (docs/scoring.md). */
            interaction_doubt: number;
            /** @description authenticate with an email address, its score, -1..1 (negative = trusted); else null. */
            email_score: number | null;
            /** @description The lists that weighed in the decision (the account's, or unauthenticated the session's accounts'). */
            lists: string[];
            /** @description How many accounts were linked (the multiple_accounts terms' counts add up to it). */
            accounts_linked: number;
            /**
             * @description In a test project, what the account id forced (docs/test-mode.md); else null.
             * @enum {string|null}
             */
            test_mode: "fake" | "real" | "signal" | null;
        };
        /**
         * @description What one evaluation computed, as it computed it (an addition beyond the session
         *     interface; docs/rules.md, "A receipt read line by line").
         */
        EvaluationReceipt: {
            request_id: components["schemas"]["RequestId"];
            project_id: string;
            session_id: components["schemas"]["SessionId"];
            /** @description The authenticated account; null for unauthenticated. */
            account_id: string | null;
            /** @enum {string} */
            operation: "authenticateSession" | "evaluateUnauthenticatedSession";
            /** Format: date-time */
            created_at: string;
            /**
             * @description The digest of the scoring constants that produced the scores (src/domain/scoring/
             *     constants.ts `SCORING_VERSION`): two receipts with one version were scored by the
             *     same weights.
             */
            scoring_version: string;
            decision: components["schemas"]["Decision"];
            decided_by: components["schemas"]["DecisionSource"];
            /** @description The project's decision threshold at the evaluation. */
            threshold: number;
            /** @description The four scores as the answer gave them (rounded to 3 decimals). */
            scores: {
                account_score: components["schemas"]["Score"];
                bot: components["schemas"]["Score"];
                multiple_accounts: components["schemas"]["Score"];
                risk_signals: components["schemas"]["Score"];
            };
            /** @description Each score's terms; account_score's terms are the other three scores unrounded, and the email. */
            breakdown: {
                account_score: components["schemas"]["ScoreBreakdown"];
                bot: components["schemas"]["ScoreBreakdown"];
                multiple_accounts: components["schemas"]["ScoreBreakdown"];
                risk_signals: components["schemas"]["ScoreBreakdown"];
            };
            rules: components["schemas"]["EvaluationRules"];
            inputs: components["schemas"]["ReceiptInputs"];
        };
        /** @description A draft rules document and threshold, and the time range of the evaluations to replay them over. */
        RulesTestRequest: {
            rules: components["schemas"]["RuleDefinition"][];
            /** @description A draft threshold; absent, each evaluation's own threshold. */
            decision_threshold?: number;
            /**
             * Format: date-time
             * @description The evaluations made at or after this time.
             */
            from: string;
            /**
             * Format: date-time
             * @description The evaluations made before this time.
             */
            to: string;
            /**
             * @description How many changed decisions to give as examples (the first found).
             * @default 10
             */
            max_examples: number;
        };
        /**
         * @description What a field holds: `number`, `boolean`, `string` (text), `strings` (a list of text,
         *     read with `contains`), `any` (a metadata member, compared as given).
         * @enum {string}
         */
        RuleFieldKind: "number" | "boolean" | "string" | "strings" | "any";
        /** @enum {string} */
        RuleOperator: "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "in" | "not_in" | "contains" | "exists" | "not_exists";
        /** @description A field a condition can name, with what it takes. */
        RuleField: {
            /** @description The path (with `prefix`, the start of one). */
            name: string;
            kind: components["schemas"]["RuleFieldKind"];
            /** @description The operators the field takes, in the order of `op`'s enum. */
            operators: components["schemas"]["RuleOperator"][];
            /** @description The values the contract allows the field (for a list field, its items); absent when open. */
            values?: string[];
            /** @description The name is a prefix, to be followed by a member's name (`account.account.metadata.`). */
            prefix: boolean;
        };
        /** @description The fields of the rules language. */
        RuleFields: {
            request_id: string;
            fields: components["schemas"]["RuleField"][];
        };
        /** @description How many replayed evaluations one rule of a draft matched, and decided. */
        RuleMatchCount: {
            id: string;
            matched: number;
            decided: number;
        };
        /**
         * @description What stopped a truncated backtest, null when it is not: `evaluation_limit`, the 10,000 evaluations; `work_budget`, the draft's comparisons times the evaluations reached the server's budget (`BACKTEST_WORK_BUDGET`: fewer or simpler conditions replay more evaluations); `time_budget`, the replay ran for the server's time budget (`BACKTEST_TIME_MS`). docs/rules.md, "What a backtest costs".
         * @enum {string|null}
         */
        BacktestTruncatedBy: "evaluation_limit" | "work_budget" | "time_budget" | null;
        /** @description A draft rules document to count the recent matches of. */
        RulesPreviewRequest: {
            rules: components["schemas"]["RuleDefinition"][];
        };
        /** @description Each rule of a draft with its matches over the evaluations of the last 7 days. */
        RulesPreview: {
            request_id: string;
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            /** @description How many evaluations were replayed. */
            evaluations: number;
            truncated: boolean;
            truncated_by: components["schemas"]["BacktestTruncatedBy"];
            rules: components["schemas"]["RuleMatchCount"][];
        };
        /**
         * @description `pending`: waiting for an admin; `published`: approved and stored as
         *     `published_version`; `rejected`: with `reason`; `superseded`: pending, but the rules
         *     were published past its base version since, so it can no longer be published.
         * @enum {string}
         */
        RuleDraftStatus: "pending" | "published" | "rejected" | "superseded";
        /** @description A whole rules document proposed over the version its author read. */
        RuleDraftRequest: {
            /** @description The version of the rules the draft was made from (`GET /rules`'s `version`). */
            base_version: number;
            /** @description What the draft is for, for the approver. */
            note?: components["schemas"]["Text"];
            rules: components["schemas"]["RuleDefinition"][];
        };
        RuleDraftRejection: {
            /** @description Why, for the author. */
            reason: components["schemas"]["Text"];
        };
        /** @description A draft without its document. */
        RuleDraftSummary: {
            /** Format: uuid */
            draft_id: string;
            base_version: number;
            /** @description Who proposed it, as the audit names actors (`operator:<id>`, `api_key:…`). */
            author: string;
            status: components["schemas"]["RuleDraftStatus"];
            note: string | null;
            rules_count: number;
            /** Format: date-time */
            created_at: string;
            /** @description The admin who published or rejected it; null while pending. */
            decided_by: string | null;
            /** Format: date-time */
            decided_at: string | null;
            /** @description Why it was rejected; null otherwise. */
            reason: string | null;
            /** @description The rules version it became; null unless published. */
            published_version: number | null;
        };
        /**
         * @description One rule of the diff from the current document to the draft's: `added` (after only),
         *     `removed` (before only), `changed` (its definition differs), `moved` (the same
         *     definition at another place among the rules both documents hold: the order decides
         *     which rule's decision wins).
         */
        RuleChange: {
            rule_id: string;
            /** @enum {string} */
            change: "added" | "removed" | "changed" | "moved";
            before: components["schemas"]["RuleDefinition"] | null;
            after: components["schemas"]["RuleDefinition"] | null;
        };
        /** @description A draft with its document, its base and its diff to the current document. */
        RuleDraft: {
            request_id: string;
            draft: components["schemas"]["RuleDraftSummary"];
            rules: components["schemas"]["RuleDefinition"][];
            /** @description The version the draft was based on, and who stored it (null for version 0). */
            base: {
                version: number;
                author: string | null;
                /** Format: date-time */
                updated_at: string | null;
            };
            /** @description The rules' version now. */
            current_version: number;
            /** @description The current document to the draft's, rule by rule (unchanged rules are not listed). */
            diff: components["schemas"]["RuleChange"][];
        };
        RuleDrafts: {
            request_id: string;
            drafts: components["schemas"]["RuleDraftSummary"][];
        };
        /** @description What a draft would have changed over the stored evaluations of a time range. */
        RulesTestResult: {
            request_id: string;
            /** @description How many evaluations were replayed. */
            evaluations: number;
            /** @description The range held more evaluations than were replayed (the oldest sessions' first): `truncated_by` says which bound stopped the replay. */
            truncated: boolean;
            truncated_by: components["schemas"]["BacktestTruncatedBy"];
            /** @description How many decisions the draft changes (to_fake + to_real). */
            changed: number;
            /** @description Real before, Fake with the draft. */
            to_fake: number;
            /** @description Fake before, Real with the draft. */
            to_real: number;
            /** @description The first changed decisions found (oldest session first). */
            examples: {
                request_id: string;
                session_id: string;
                account_id: string | null;
                /** Format: date-time */
                created_at: string;
                before: components["schemas"]["Decision"];
                after: components["schemas"]["Decision"];
                decided_by: components["schemas"]["DecisionSource"];
            }[];
            /** @description Each rule of the draft, in order, with how many evaluations it matched and decided. */
            rules: components["schemas"]["RuleMatchCount"][];
            /**
             * @description The draft against the accounts' current labels (`POST /account/{account_id}/label`):
             *     over the replayed evaluations of labelled accounts, the current decisions, the
             *     draft's and each draft rule's matches as predictions of `fraud` (the positive
             *     class: a `Fake` decision, a rule's match), with precision and recall
             *     (src/domain/labels/report.ts). Null when no replayed evaluation is of a labelled
             *     account.
             */
            labels: null | {
                /** @description How many replayed evaluations are of a labelled account. */
                labelled: number;
                current: components["schemas"]["ConfusionCounts"];
                draft: components["schemas"]["ConfusionCounts"];
                /** @description Each rule of the draft, in order. */
                rules: (components["schemas"]["ConfusionCounts"] & {
                    id: string;
                })[];
            };
        };
        /** @description One setting as it was before the change and after it. */
        AuditChange: {
            /**
             * @description `webhook_events` before and after are the event types joined by spaces; `rules_version` the rules document's version; `rules_draft` names a rules draft (the same before and after), `rules_draft_status` is its status before and after, `rules_draft_author` its author (the same before and after); `label` is the account's label (null before its first); `list` is one membership: `before` the list the account left (null: it joined one), `after` the list it joined (null: it left one); `webhook_request_id` names the replayed delivery (the same before and after), `webhook_status` is its status before the replay and `pending` after; `case_id` names the case of a `case.` event (null before: it opened), `status`, `assignee` (an operator's id), `outcome` and `list` are the case's before and after; `blocked_count` is how many accounts a ring block put on `block` (before: null) and `blocked_account` one of them (before: null, after: its id).
             * @enum {string}
             */
            field: "name" | "decision_threshold" | "link_score_floor" | "groups_enabled" | "webhook_url" | "webhook_events" | "retention_sessions_days" | "retention_verification_media_days" | "retention_delivered_webhooks_days" | "webhook_secret_grace_until" | "rules_version" | "rules_draft" | "rules_draft_status" | "rules_draft_author" | "label" | "list" | "webhook_request_id" | "webhook_status" | "case_id" | "status" | "assignee" | "outcome" | "blocked_count" | "blocked_account";
            before: string | number | boolean | null;
            after: string | number | boolean | null;
        };
        /** @description A change to the project's settings, a label set on one of its accounts, a change of an account's list memberships, an account's erasure, a webhook's replay, a ring put on `block` or a change of a case. */
        AuditEvent: {
            id: string;
            /** @description `api_key:` and the first 12 hex digits of the SHA-256 of the key that made the change, `operator:` and the id of the console operator who made it, `cli`, or `rule:` and the id of the rule whose action opened a case. */
            actor: string;
            /**
             * @description `project.updated`: settings changed (PATCH /project). `webhook_secret.rotated`: a new
             *     webhook secret (its change shows the end of the previous secret's grace period as
             *     `webhook_secret_grace_until`; never a secret). `rules.updated`: a new rules document
             *     (PUT /rules; its change is `rules_version`, before and after). `rules.draft_created`: a
             *     rules draft proposed (POST /rules/drafts; `rules_draft`, `rules_draft_status`).
             *     `rules.published`: a draft approved and stored as the next version by its actor, the
             *     approver (`rules_draft`, `rules_draft_author`, `rules_draft_status`, `rules_version`).
             *     `rules.draft_rejected`: a draft rejected by its actor (`rules_draft`,
             *     `rules_draft_author`, `rules_draft_status`). `account.labelled`: a
             *     label set on the account `account_id` (POST /account/{account_id}/label; its change is
             *     `label`, never the note). `account.lists_changed`: the account `account_id` added to
             *     or removed from lists by the List API or `PUT /account/{account_id}` (one `list` change
             *     per membership; adding to a standard list removes it from the other two). Lists changed by an
             *     evaluation (authenticate's `lists`, rules' list actions) are not audited: their
             *     `list.account_added` / `list.account_removed` webhooks report them.
             *     `account.erased`: an account erased (`DELETE /account/{account_id}`); it names neither
             *     the account nor anything about it (the account id is personal data), only who erased
             *     one and when, and the request; its `changes` are empty. `webhook.replayed`: a webhook
             *     delivery queued again (`POST /webhooks/deliveries/{request_id}/replay` or `trustgate
             *     webhooks replay`); its changes are `webhook_request_id` (the delivery's, the same before
             *     and after) and `webhook_status` (the delivery's before, and `pending`).
             *     `case.opened`, `case.updated`, `case.noted`, `case.closed`: a case of the account
             *     `account_id` (its first) opened, assigned or moved, noted (never the text) or closed
             *     (docs/cases.md); each names the case as a `case_id` change, and the others what changed
             *     (`status`, `assignee`, `outcome`, `list`). A case a rule's `open_case` opened has the
             *     actor `rule:<id>`.
             *     `ring.blocked`: the ring of the account `account_id` put on `block` (POST
             *     /account/{account_id}/ring/block); its changes are `blocked_count` (how many accounts
             *     joined `block`) and one `blocked_account` per account that joined it (an erased
             *     account's id is then `[erased]`).
             * @enum {string}
             */
            action: "project.updated" | "webhook_secret.rotated" | "rules.updated" | "rules.draft_created" | "rules.published" | "rules.draft_rejected" | "account.labelled" | "account.lists_changed" | "account.erased" | "webhook.replayed" | "case.opened" | "case.updated" | "case.noted" | "case.closed" | "ring.blocked";
            /** @description The account an `account.labelled`, `account.lists_changed` or `ring.blocked` event concerns; absent once the account is erased. */
            account_id?: string;
            /** @description The request that made the change; null for the `trustgate` command. */
            request_id: string | null;
            changes: components["schemas"]["AuditChange"][];
            /** Format: date-time */
            created_at: string;
        };
        /**
         * @description What an operator may do: `viewer` reads; `analyst` also labels accounts, changes list
         *     memberships, proposes rules drafts and works cases; `admin` does everything (settings,
         *     publishing another's rules draft, lists, accounts, evaluations).
         * @enum {string}
         */
        OperatorRole: "viewer" | "analyst" | "admin";
        /** @description An operator of a project (a person signing in to the console). */
        Operator: {
            /**
             * Format: uuid
             * @description The operator's id, as the audit names it (`operator:<id>`).
             */
            id: string;
            /**
             * Format: uuid
             * @description The project the operator belongs to; it never sees another.
             */
            project_id: string;
            /** @description The operator's email (lower case), which signs it in. */
            email: string;
            role: components["schemas"]["OperatorRole"];
            /**
             * Format: date-time
             * @description When the operator was added.
             */
            created_at: string;
            /** @description The operator can no longer sign in (given by `GET /operators`; a signed-in operator never is). */
            disabled?: boolean;
        };
        /** @description The project's console operators. */
        Operators: {
            request_id: string;
            operators: (components["schemas"]["Operator"] & {
                disabled: boolean;
            })[];
        };
        /** @description An operator's credentials. */
        ConsoleLoginRequest: {
            /** @description The operator's email (compared without regard to case). */
            email: components["schemas"]["Text"];
            /** @description The operator's password. */
            password: components["schemas"]["Text"];
        };
        /** @description A signed-in operator's session. */
        ConsoleSession: {
            operator: components["schemas"]["Operator"];
            /** @description Sent in the `x-csrf-token` header of every request with the cookie other than a `GET`. */
            csrf_token: string;
            /**
             * Format: date-time
             * @description When the session ends at the latest (it ends sooner when unused for `CONSOLE_SESSION_IDLE_MINUTES`).
             */
            expires_at: string;
        };
        /** @description How operators can sign in to the console. */
        ConsoleSignInOptions: {
            /**
             * @description Email and password (`POST /console/login`), always offered.
             * @constant
             */
            password: true;
            /** @description Single sign-on through OpenID Connect (`GET /console/oidc/login`), when configured; else null. */
            oidc: null | {
                /** @description The sign-in button's text (`OIDC_LABEL`). */
                label: string;
            };
        };
        /**
         * @description `pending`: waiting for its next attempt; `delivered`: the receiver answered 2xx;
         *     `failed`: the retry schedule ran out or the target was refused (a replay queues it again).
         * @enum {string}
         */
        WebhookDeliveryStatus: "pending" | "delivered" | "failed";
        /** @description A queued webhook and where its delivery stands. */
        WebhookDelivery: {
            /** @description The event's id, sent as `x-event-id` on every attempt (receivers de-duplicate on it). */
            request_id: string;
            /** @description The event's type (webhooks.yaml's `SubscribableEventType`). */
            event_type: string;
            status: components["schemas"]["WebhookDeliveryStatus"];
            /** @description The attempts made so far (replays included). */
            attempts: number;
            /**
             * Format: date-time
             * @description When the webhook was queued.
             */
            created_at: string;
            /** Format: date-time */
            first_attempt_at: string | null;
            /**
             * Format: date-time
             * @description When a 2xx was last answered; null until then.
             */
            delivered_at: string | null;
            /**
             * Format: date-time
             * @description When it is due (pending only); null otherwise.
             */
            next_attempt_at: string | null;
            /** @description What the last failed attempt ended in (null after a success). */
            last_error: string | null;
        };
        /** @description A page of webhook deliveries, newest first. */
        WebhookDeliveries: {
            request_id: string;
            deliveries: components["schemas"]["WebhookDelivery"][];
            /** @description The `cursor` of the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description One attempt to deliver a webhook. */
        WebhookAttempt: {
            attempt: number;
            /** Format: date-time */
            at: string;
            /** @description The HTTP status answered; null when none came (timeout, connection refused, target refused). */
            status_code: number | null;
            latency_ms: number;
            /** @description Why the attempt failed; null when it succeeded. */
            error: string | null;
            /**
             * @description The first 512 bytes of the receiver's answer body, as UTF-8 (null when there was no
             *     answer, or for attempts made before this was kept).
             */
            answer: string | null;
        };
        /** @description One webhook delivery with its event and its attempts. */
        WebhookDeliveryDetail: {
            request_id: string;
            delivery: components["schemas"]["WebhookDelivery"] & {
                /** @description The event's body as queued (webhooks.yaml's envelope for its `event_type`). */
                event: {
                    [key: string]: unknown;
                };
                /** @description Every attempt, oldest first. */
                attempts_made: components["schemas"]["WebhookAttempt"][];
            };
        };
        /** @description A webhook queued again. */
        WebhookDeliveryReplayed: {
            request_id: string;
            delivery: components["schemas"]["WebhookDelivery"];
        };
        /** @description A page of audit events, newest first. */
        AuditEvents: {
            request_id: string;
            events: components["schemas"]["AuditEvent"][];
            /** @description The `cursor` of the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description The project's evaluations per UTC day by decision, and the risk signals they raised. */
        EvaluationStats: {
            request_id: string;
            /** @description The first day counted (UTC). */
            from: string;
            /** @description The last day counted (UTC). */
            to: string;
            /** @description Every day of the range in order, days without evaluations included (zeros). */
            days: {
                day: string;
                Real: number;
                Fake: number;
            }[];
            /** @description The signals raised in the range, the most raised first (then by name). */
            signals: {
                signal: components["schemas"]["RiskSignalName"];
                count: number;
            }[];
        };
        /**
         * @description `open`: waiting for an analyst; `in_review`: an analyst is on it; `closed`: decided, with
         *     an `outcome`. `open` and `in_review` are the active statuses.
         * @enum {string}
         */
        CaseStatus: "open" | "in_review" | "closed";
        /**
         * @description The first account's scores and signals when the case opened: the evaluation whose rule
         *     opened it, or else the account's latest evaluation (`GET /evaluation/{evaluation_request_id}`
         *     is its receipt). `signals` names the risk signals and conditions detected then.
         */
        CaseSnapshot: {
            evaluation_request_id: string | null;
            decision: components["schemas"]["Decision"];
            account_score: components["schemas"]["Score"];
            bot: components["schemas"]["Score"];
            multiple_accounts: components["schemas"]["Score"];
            risk_signals: components["schemas"]["Score"];
            signals: string[];
        };
        /** @description A note on a case. */
        CaseNote: {
            /** Format: uuid */
            id: string;
            /** @description Who wrote it, as the audit names actors (`operator:<id>`, `api_key:…`, `cli`). */
            author: string;
            text: string;
            /** Format: date-time */
            created_at: string;
        };
        /**
         * @description An account, or a group of linked accounts, under review (docs/cases.md). `account_id` is
         *     the first of `account_ids`, the one the case opened for. `notes` are given by the calls on
         *     one case, not in the queue's pages.
         */
        Case: {
            /** Format: uuid */
            case_id: string;
            status: components["schemas"]["CaseStatus"];
            /** @description How the case was closed; null while it is active. */
            outcome: components["schemas"]["LabelValue"] | null;
            account_id: string;
            account_ids: string[];
            reason: string;
            /** @description `rule:<id>` for a rule's `open_case` action, else the actor as the audit names it. */
            opened_by: string;
            /** @description The rule that opened the case; null when a person or the API did. */
            rule_id: string | null;
            /** @description The scores when the case opened; null when its first account had never been evaluated. */
            snapshot: components["schemas"]["CaseSnapshot"] | null;
            /** @description The operator on the case (`GET /operators`), or null. */
            assignee: string | null;
            /**
             * @description The list closing the case put its accounts on; null when none.
             * @enum {string|null}
             */
            list: "block" | "allow" | null;
            /** @description Counted up by each change; `PATCH`'s `expected_version`. */
            version: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            closed_at: string | null;
            closed_by: string | null;
            notes?: components["schemas"]["CaseNote"][];
        };
        /** @description A page of the project's cases. */
        CasePage: {
            request_id: string;
            cases: components["schemas"]["Case"][];
            next_cursor: string | null;
        };
        /** @description The accounts to review (the first is the one the case is about) and why. */
        CaseInput: {
            account_ids: components["schemas"]["Text"][];
            reason: components["schemas"]["Text"];
            /**
             * Format: uuid
             * @description An operator of the project to give the case to.
             */
            assignee?: string | null;
        };
        /** @description What to change; at least one of `status` and `assignee`. */
        CaseUpdate: {
            /** @enum {string} */
            status?: "open" | "in_review";
            /** Format: uuid */
            assignee?: string | null;
            expected_version?: number;
        };
        /** @description The outcome, the list to put the accounts on (none when absent), and a note. */
        CaseClose: {
            outcome: components["schemas"]["LabelValue"];
            /** @enum {string} */
            list?: "block" | "allow";
            note?: components["schemas"]["Text"];
        };
        CaseNoteInput: {
            text: components["schemas"]["Text"];
        };
        /**
         * @description A person's judgement of an account; `fraud` is the positive class of the label report.
         * @enum {string}
         */
        LabelValue: "fraud" | "legit";
        /** @description The label to record. */
        AccountLabelInput: {
            label: components["schemas"]["LabelValue"];
            /** @description Why (at most 1000 characters); personal data, deleted with the account. */
            note?: components["schemas"]["Text"];
        };
        /** @description One label of an account, as stored. */
        AccountLabel: {
            id: string;
            label: components["schemas"]["LabelValue"];
            note: string | null;
            /** @description `api_key:` and the first 12 hex digits of the SHA-256 of the key that set it, or `cli`. */
            actor: string;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The label just recorded. */
        AccountLabelled: components["schemas"]["AccountLabel"] & {
            request_id: string;
            account_id: string;
        };
        /** @description A page of an account's labels, newest first. */
        AccountLabels: {
            request_id: string;
            account_id: string;
            labels: components["schemas"]["AccountLabel"][];
            /** @description The `cursor` of the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** @description Labelled evaluations by whether they were flagged and how they were labelled, with precision and recall. */
        ConfusionCounts: {
            /** @description Flagged and labelled fraud. */
            true_positives: number;
            /** @description Flagged and labelled legit. */
            false_positives: number;
            /** @description Not flagged and labelled legit. */
            true_negatives: number;
            /** @description Not flagged and labelled fraud. */
            false_negatives: number;
            /** @description true_positives / (true_positives + false_positives); null when nothing is flagged. */
            precision: number | null;
            /** @description true_positives / (true_positives + false_negatives); null when nothing is labelled fraud. */
            recall: number | null;
        };
        /** @description The counts when evaluations with an `account_score` at or above `threshold` are flagged. */
        ThresholdCounts: components["schemas"]["ConfusionCounts"] & {
            threshold: number;
        };
        /** @description Precision and recall of the scores and decisions against the labels, per threshold from 0.05 to 0.95. */
        LabelReport: {
            request_id: string;
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
            /** @description The labelled evaluations counted. */
            evaluations: number;
            /** @description Of them, those of accounts labelled fraud. */
            fraud: number;
            /** @description Of them, those of accounts labelled legit. */
            legit: number;
            /** @description True when the range held more than 100,000 labelled evaluations; the counts cover the first 100,000. */
            truncated: boolean;
            thresholds: components["schemas"]["ThresholdCounts"][];
            /** @description The counts when evaluations decided `Fake` are flagged. */
            decision: components["schemas"]["ConfusionCounts"];
        };
        /**
         * @description The webhook events the project is sent (webhooks.yaml); by default the two verification
         *     events. An empty list sends none.
         */
        WebhookEvents: components["schemas"]["SubscribableEventType"][];
        /** @description A list with a page of its account ids. */
        ListPage: components["schemas"]["ListSummary"] & {
            request_id: string;
            /** @description Account ids on the list, in id order. */
            accounts: string[];
        };
        /** @description The new list's description. */
        CreateListRequest: {
            /** @description What the list is for. */
            list_description?: components["schemas"]["Text"];
        };
        /** @description A change to a list that was made, in words. */
        ListChange: {
            request_id: string;
            /** @constant */
            success: true;
            message: string;
        };
        /**
         * @description `face-match` (a selfie, matched against the account's enrolled faces) or `id-check` (an ID document and a selfie).
         * @enum {string}
         */
        VerificationType: "face-match" | "id-check";
        /** @description A verification session to start. */
        CreateVerificationSession: {
            type: components["schemas"]["VerificationType"];
            /** @description The customer's account being verified. */
            account_id?: components["schemas"]["Text"];
            /** @description The SDK session the user came from; the capture is compared with it. */
            referring_session_id?: components["schemas"]["SessionId"];
            /**
             * Format: uri
             * @description Where the hosted page sends the user at the end (an http or https URL, without spaces or control characters), with `session_id`, `success` and `error_message`.
             */
            redirect_url?: string;
        };
        /** @description A new verification session. */
        VerificationSessionCreated: {
            request_id: string;
            session_id: components["schemas"]["SessionId"];
            /**
             * Format: uri
             * @description The hosted page for the end user, with its capture token.
             */
            url: string;
            /**
             * Format: date-time
             * @description 30 days after creation; the session then ends with `max_duration_exceeded`.
             */
            expires_at: string;
        };
        VerificationErrorCode: components["schemas"]["WebhookErrorCode"];
        /**
         * @description A step of the hosted page; `id_front` and `id_back` are ID Check only.
         * @enum {string}
         */
        CaptureKind: "selfie" | "id_front" | "id_back";
        /** @description A stored capture. */
        CaptureStored: {
            session_id: components["schemas"]["SessionId"];
            kind: components["schemas"]["CaptureKind"];
            /**
             * @description The image type, as read from its first bytes.
             * @enum {string}
             */
            content_type: "image/jpeg" | "image/png" | "image/webp";
            /** @description Bytes. */
            size: number;
        };
        /** @description How a verification session ended (as for Cancel), or, with `status` `retry`, that the attempt failed and the user may try again. */
        VerificationCompletion: {
            session_id: components["schemas"]["SessionId"];
            /** @enum {string} */
            status: "success" | "error" | "retry";
            error_code?: components["schemas"]["WebhookErrorCode"];
            /** @description With `retry`, the attempts left before the session ends with `face_match_failed`. */
            attempts_remaining?: number;
            /** @description With `retry`, what went wrong, for the user. */
            message?: string;
            /** @description The customer's redirect URL with `session_id`, `success` and `error_message` once the session has ended; null otherwise or when none was given. */
            redirect_url: string | null;
        };
        /** @description How a verification session ended, and where the hosted page sends the user. */
        VerificationSessionEnded: {
            session_id: components["schemas"]["SessionId"];
            /** @enum {string} */
            status: "success" | "error";
            error_code?: components["schemas"]["WebhookErrorCode"];
            /** @description The customer's redirect URL with `session_id`, `success` and `error_message`; null when none was given. */
            redirect_url: string | null;
        };
        /**
         * @description Why verify-face or verify-id has no result to give:
         *     `session_not_found` (no such session in the project, or its result was erased with its account or past the project's `retention_verification_media_days`),
         *     `session_not_valid_for_this_endpoint` (a Face Match session sent to verify-id, or the reverse),
         *     `session_not_started` (no capture was uploaded yet),
         *     `id_scan_not_complete` (an ID Check whose document sides were not both uploaded),
         *     `session_not_complete` (the captures are in but the session was not completed),
         *     `liveness_check_failed` (it ended with `liveness_check_failed`, `face_match_failed` or `failed_to_collect_device_data`),
         *     `id_scan_failed` (it ended with `failed_to_process_id_scan`).
         *     A session that ended with `max_duration_exceeded` was never completed: it answers
         *     `session_not_started`, `id_scan_not_complete` or `session_not_complete`, by how far the
         *     user got.
         * @enum {string}
         */
        VerificationResultErrorCode: "session_not_found" | "session_not_valid_for_this_endpoint" | "session_not_started" | "id_scan_not_complete" | "session_not_complete" | "liveness_check_failed" | "id_scan_failed";
        /** @description The error body of verify-face and verify-id when the session has no result to give. */
        VerificationResultError: components["schemas"]["LivenessError"] & {
            error?: components["schemas"]["VerificationResultErrorCode"];
        };
        /**
         * @description Why a verification session was not created.
         * @enum {string}
         */
        SessionCreationErrorCode: "groups_enabled";
        /**
         * @description Why the public link started no session.
         * @enum {string}
         */
        PublicRedirectErrorCode: "missing_project_id" | "groups_enabled";
        /**
         * @description Why a session was not enrolled: a reason of verify-face / verify-id, or
         *     `session_already_tied_to_an_account`, or `session_older_than_30_days`.
         */
        EnrollErrorCode: components["schemas"]["VerificationResultErrorCode"] | ("session_already_tied_to_an_account" | "session_older_than_30_days");
        /** @description Why verify-identity compared nothing: a reason of verify-face, or `account_not_found`. */
        VerifyIdentityErrorCode: components["schemas"]["VerificationResultErrorCode"] | "account_not_found";
        /** @description Any code a verification operation answers in `error`. */
        LivenessErrorCode: components["schemas"]["SessionCreationErrorCode"] | components["schemas"]["PublicRedirectErrorCode"] | components["schemas"]["EnrollErrorCode"] | components["schemas"]["VerifyIdentityErrorCode"];
        /**
         * @description The coded error body of the verification operations: `{statusCode, message}` as every
         *     error, with this answer's `request_id`, `success: false` and a code in `error` that
         *     clients branch on (each operation's `400` says which codes it answers).
         */
        LivenessError: {
            /** @constant */
            statusCode: 400;
            /** @description What was wrong, in words. */
            message: string;
            /** @description This answer's id. */
            request_id: string;
            /** @constant */
            success: false;
            error: components["schemas"]["LivenessErrorCode"];
        };
        /** @description The session to enroll and the account it is enrolled for. */
        EnrollRequest: {
            session_id: components["schemas"]["SessionId"];
            /** @description The customer's account. */
            account_id: components["schemas"]["Text"];
        };
        /** @description The session is enrolled for the account. */
        Enrolled: {
            request_id: string;
            /** @constant */
            success: true;
        };
        /** @description A completed Face Match session and the account whose enrolled face it is compared with. */
        VerifyIdentityRequest: {
            session_id: components["schemas"]["SessionId"];
            /** @description The customer's account. */
            account_id: components["schemas"]["Text"];
        };
        /** @description The comparison's answer. */
        IdentityVerified: {
            request_id: string;
            /** @constant */
            success: true;
            /** @description Whether the session's face and one of the account's enrolled faces are the same person. */
            match: boolean;
        };
        /**
         * @description Why the session ended without a result:
         *     `liveness_check_failed` (a non-success state, for example the user cancelled a step),
         *     `face_match_failed` (the face match or liveness step used up its attempts),
         *     `failed_to_process_id_scan` (the ID document scan could not be processed; ID Check only),
         *     `failed_to_collect_device_data` (device or network data could not be collected from the browser),
         *     `max_duration_exceeded` (the session was never completed within 30 days of its creation).
         * @enum {string}
         */
        WebhookErrorCode: "liveness_check_failed" | "face_match_failed" | "failed_to_process_id_scan" | "failed_to_collect_device_data" | "max_duration_exceeded";
        /** @description The ids and time of a verification result. */
        ResultMetadata: {
            project_id: string;
            /** @description The verification session's id. */
            session_id: string;
            /** @description The account the verification session was created for, if any. */
            account_id: string | null;
            /** @description The SDK session that led the user to the verification, if any. */
            referring_session_id: string | null;
            /** @description Equals the webhook's `request_id`. */
            request_id: string;
            /**
             * Format: date-time
             * @description When the result was produced.
             */
            timestamp: string;
        };
        /**
         * @description A named risk finding, under the name the production service publishes for it where
         *     it has one: `repeat_face` (the face is enrolled on another account), `repeat_device`
         *     (the capture device was used by another account), `repeat_id` (the document is on
         *     another account), `low_id_face_match_score` and `moderate_id_face_match_score` (the
         *     selfie and the ID photo agree poorly or only moderately), `id_expired`,
         *     `id_age_below_16`, `likely_fake_id` (two of the document's integrity checks failed or
         *     a date is impossible) and `cannot_confirm_id_is_authentic` (one check failed: a check
         *     digit, the barcode's structure), each as its `document_signals.id_validity` says,
         *     `high_device_risk` (the capture device's `device_risk` signal: automation, tampering,
         *     an emulator), `ip_document_country_mismatch`. Trustgate's own, without a published
         *     name of the same meaning: `liveness_failed` (the selfie looks like a photo of a photo,
         *     a screen or a mask). Releases up to 0.2.0 sent `id_invalid` for the two document
         *     flags and `device_risk` for `high_device_risk`; stored results are sent with the new
         *     names.
         * @enum {string}
         */
        RiskFlag: "repeat_face" | "repeat_device" | "repeat_id" | "low_id_face_match_score" | "moderate_id_face_match_score" | "id_expired" | "id_age_below_16" | "likely_fake_id" | "cannot_confirm_id_is_authentic" | "liveness_failed" | "high_device_risk" | "ip_document_country_mismatch";
        /**
         * @description How another account is linked to the verification: `face` (the same enrolled face),
         *     `ip_address` (the capture came from an address one of the account's sessions used
         *     within a day of it, shared networks such as hosting and private relays excepted),
         *     `browser` (the same browser fingerprint), `document_number` (the same document
         *     number), `document_name` (the same name and date of birth on a document).
         * @enum {string}
         */
        VerificationMatchType: "face" | "ip_address" | "browser" | "document_number" | "document_name";
        /** @description Accounts of the project linked to the verification. */
        Matches: {
            num_accounts_linked: number;
            accounts_linked: {
                account_id: string;
                match_types: components["schemas"]["VerificationMatchType"][];
            }[];
        };
        /**
         * Format: uri
         * @description A signed media URL, valid for 60 minutes after the webhook was sent or the result was fetched.
         */
        SignedUrl: string;
        /** @description The members that Face Match and ID Check results share. */
        ResultBase: {
            metadata: components["schemas"]["ResultMetadata"];
            decision: components["schemas"]["Decision"];
            /** @description Overall risk of the verification, from 0 to 1. */
            risk_score: components["schemas"]["Score"];
            risk_flags: components["schemas"]["RiskFlag"][];
            matches: components["schemas"]["Matches"];
            /** @description Signed URLs of the session's videos. */
            video_urls: components["schemas"]["SignedUrl"][];
        };
        /** @description A project rule that matched the session. */
        Rule: {
            /** @description The rule's name. */
            name: string;
            description?: string;
        };
        /** @description Scores from 0 to 1 of the capture device and network. */
        FaceMatchDeviceNetworkSignals: {
            device_risk: components["schemas"]["Score"];
            proxy: components["schemas"]["Score"];
            vpn: components["schemas"]["Score"];
            datacenter: components["schemas"]["Score"];
            tor: components["schemas"]["Score"];
            spoofed_ip: components["schemas"]["Score"];
            recent_fraud_ip: components["schemas"]["Score"];
            device_network_mismatch: components["schemas"]["Score"];
            location_spoofing: components["schemas"]["Score"];
        };
        /**
         * @description Scores from 0 to 1 comparing the capture device and network with the referring SDK
         *     session (all 0 when there is none).
         */
        FaceMatchReferringSessionSignals: {
            impossible_travel: components["schemas"]["Score"];
            ip_mismatch: components["schemas"]["Score"];
            user_agent_mismatch: components["schemas"]["Score"];
            device_timezone_mismatch: components["schemas"]["Score"];
            ip_timezone_mismatch: components["schemas"]["Score"];
        };
        /** @description The capture device and network, with the session's member shapes. */
        VerificationSessionData: {
            network: components["schemas"]["Network"];
            /**
             * @description Where the capture's address is. `zip_code` is always present, as the published
             *     results carry it: empty when the geolocation data has no postal code for the address.
             */
            location: components["schemas"]["Location"] & {
                zip_code: string;
            };
            browser: components["schemas"]["Browser"];
            device: components["schemas"]["DeviceSummary"];
        };
        /** @description The capture device and network of a Face Match, with the true country. */
        FaceMatchSessionData: components["schemas"]["VerificationSessionData"] & {
            /** @description The best estimate of the real country behind the capture. */
            true_country_code?: string;
        };
        /** @description The result of a Face Match session (`data` of its webhook; the answer of verify-face). */
        FaceMatchResult: components["schemas"]["ResultBase"] & {
            /** @description Lists the session's account belongs to. */
            lists: components["schemas"]["ListName"][];
            rules: components["schemas"]["Rule"][];
            device_network_signals: components["schemas"]["FaceMatchDeviceNetworkSignals"];
            referring_session_signals: components["schemas"]["FaceMatchReferringSessionSignals"];
            /** @description The selfie. */
            photo_urls: {
                face: components["schemas"]["SignedUrl"];
            };
            session_data: components["schemas"]["FaceMatchSessionData"];
        };
        /** @description Which risk signals the capture device and network show. */
        IdCheckDeviceNetworkSignals: {
            /** @description The document's country differs from the capture IP's country. */
            ip_document_country_mismatch: boolean;
            device_risk: boolean;
            proxy: boolean;
            vpn: boolean;
            datacenter: boolean;
            tor: boolean;
            spoofed_ip: boolean;
            recent_fraud_ip: boolean;
            device_network_mismatch: boolean;
        };
        /**
         * @description Comparisons of the capture device and network with the referring SDK session (all
         *     false when there is none).
         */
        IdCheckReferringSessionSignals: {
            impossible_travel: boolean;
            ip_mismatch: boolean;
            user_agent_mismatch: boolean;
        };
        /** @description The capture device and network of an ID Check. */
        IdCheckSessionData: components["schemas"]["VerificationSessionData"];
        /**
         * @description What the analysis of the document found, in the vocabulary ID Check clients already
         *     branch on. A value that says a check could not be made is never a pass.
         */
        DocumentSignals: {
            /**
             * @description Age in whole years from the document's date of birth. `0` when no date of birth was
             *     read (`user_data.date_of_birth` is then empty and `id_age_below_16` is not raised):
             *     always an integer, so clients that type it as one keep parsing.
             */
            id_age: number;
            /**
             * @description The highest age band the selfie's estimated age reaches (an estimated 23 is
             *     `over21`; below 8, `under8`); null when no estimate could be made.
             * @enum {string|null}
             */
            face_age_estimate: "under8" | "over8" | "over13" | "over16" | "over18" | "over21" | "over25" | "over30" | "over40" | "over50" | "over65" | null;
            /**
             * @description Similarity of the selfie and the document's portrait, 0 to 1. `0` when the document
             *     shows no portrait (`id_face_status` is then `not_available`; no face-match flag is
             *     raised): always a number, so clients that type it as one keep parsing.
             */
            id_face_match_score: number;
            /**
             * @description The document's barcode: `success` (read), `barcode_requested_but_not_found` (the
             *     document should carry one and none was seen), `barcode_requested_but_error_reading`
             *     (one was seen but could not be decoded), `no_barcode_specificed_by_template` (the
             *     document has none, e.g. a passport read by its machine-readable zone; the spelling is
             *     the one clients match on). `barcode_requested_and_read_but_could_not_parse` is part
             *     of the vocabulary and not sent today (a decoded barcode that is not a licence's
             *     structure is reported as `success` with its failed checks).
             * @enum {string}
             */
            id_barcode_status: "success" | "barcode_requested_but_not_found" | "barcode_requested_but_error_reading" | "barcode_requested_and_read_but_could_not_parse" | "no_barcode_specificed_by_template";
            /**
             * @description The document's portrait: `not_available` when the front shows none;
             *     `ocr_template_does_not_support_detection` when one was found but no tampering check
             *     can be made on it (no such model runs). `likely_original_face` and
             *     `cannot_confirm_id_is_authentic` are part of the vocabulary and not sent today.
             * @enum {string}
             */
            id_face_status: "likely_original_face" | "cannot_confirm_id_is_authentic" | "not_available" | "ocr_template_does_not_support_detection";
            /**
             * @description Whether the document's data looks original: `likely_original_text` when it was read
             *     and every integrity check the document allows passed (barcode header and
             *     structure, MRZ check digits, consistent dates), `cannot_confirm_id_is_authentic`
             *     when one failed, `not_available` when nothing was read or no check could be made.
             * @enum {string}
             */
            id_text_status: "likely_original_text" | "cannot_confirm_id_is_authentic" | "not_available";
            /**
             * @description Whether the document is a physical card rather than an image of one on a screen.
             *     No screen-replay check runs, so it is always
             *     `could_not_confidently_determine_physical_id_user_needs_to_retry`, never a made-up
             *     `likely_physical_id`.
             * @enum {string}
             */
            is_id_digital_spoof: "likely_physical_id" | "could_not_confidently_determine_physical_id_user_needs_to_retry";
            /**
             * @description `full_id_detected` when the document's four edges were all found in the front
             *     image; `could_not_confidently_determine_full_id_user_needs_to_retry` when only some
             *     or none were.
             * @enum {string}
             */
            is_full_id_captured: "full_id_detected" | "could_not_confidently_determine_full_id_user_needs_to_retry";
            /**
             * @description The overall verdict from the checks that could be made (barcode, dates, check
             *     digits): `likely_authentic_id` when every one passed, `likely_fake_id` when two
             *     failed or a date is impossible, `cannot_confirm_id_is_authentic` when one failed,
             *     nothing was read or no check could be made.
             * @enum {string}
             */
            id_validity: "likely_authentic_id" | "likely_fake_id" | "cannot_confirm_id_is_authentic";
        };
        /** @description A date in MM/DD/YYYY form; the empty string when it was not read. */
        DocumentDate: string;
        /** @description What was read from the document. Strings are empty when a field was not read. */
        DocumentData: {
            template_info: {
                /** @description ISO 3166-1 alpha-2 code of the issuing country. */
                document_country_code: string;
                document_country: string;
                /** @description The issuing state or province, where there is one. */
                document_state: string;
                /**
                 * @description The kind of document: `state_id` is a US or Canadian identity card (read from its
                 *     licence-style barcode), `national_id` another country's identity card (read from
                 *     its machine-readable zone), `other` a machine-readable document of another kind
                 *     (a visa, say), `unknown` when nothing was read.
                 * @enum {string}
                 */
                template_type: "passport" | "driver_license" | "state_id" | "national_id" | "residence_permit" | "other" | "unknown";
            };
            user_data: {
                first_name: string;
                last_name: string;
                date_of_birth: components["schemas"]["DocumentDate"];
                date_of_expiration: components["schemas"]["DocumentDate"];
                date_of_issue: components["schemas"]["DocumentDate"];
                id_number: string;
                /** @description A second document number, where the document has one. */
                id_number2: string | null;
                address: {
                    city: string;
                    country: string;
                    postal_code: string;
                    state: string;
                    street: string;
                };
            };
            /** @description The selfie and both sides of the document. */
            photo_urls: {
                face: components["schemas"]["SignedUrl"];
                id_scan_back: components["schemas"]["SignedUrl"];
                id_scan_front: components["schemas"]["SignedUrl"];
            };
        };
        /** @description The result of an ID Check session (`data` of its webhook; the answer of verify-id). */
        IdCheckResult: components["schemas"]["ResultBase"] & {
            device_network_signals: components["schemas"]["IdCheckDeviceNetworkSignals"];
            referring_session_signals: components["schemas"]["IdCheckReferringSessionSignals"];
            session_data: components["schemas"]["IdCheckSessionData"];
            document_signals: components["schemas"]["DocumentSignals"];
            document_data: components["schemas"]["DocumentData"];
        };
        /**
         * @description An event a project can subscribe to (`webhook_events`).
         * @enum {string}
         */
        SubscribableEventType: "verification.face-match.completed" | "verification.id-check.completed" | "list.account_added" | "list.account_removed" | "evaluation.rule_matched";
        /** @description The kind of event. */
        EventType: components["schemas"]["SubscribableEventType"] | "webhook.test";
        /** @description The members of every webhook envelope. */
        EnvelopeBase: {
            /** @description Unique id of this webhook, stable across delivery attempts. On success it equals `data.metadata.request_id`. */
            request_id: string;
            /** @description The verification session's id. */
            session_id: string;
            project_id: string;
            event_type: components["schemas"]["EventType"];
            /**
             * Format: date-time
             * @description When the verification session was created.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the session completed.
             */
            completed_at: string;
            /** @enum {string} */
            status: "success" | "error";
            /** @description The result on success; null on error. */
            data: unknown;
            /** @description The reason on error; null on success. */
            error: unknown;
        };
        /** @description A Face Match session that produced a result. */
        FaceMatchCompletedSuccess: components["schemas"]["EnvelopeBase"] & {
            /** @constant */
            event_type: "verification.face-match.completed";
            /** @constant */
            status: "success";
            data: components["schemas"]["FaceMatchResult"];
            error: null;
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "success";
        };
        /** @description The reason a session ended without a result. */
        WebhookError: {
            code: components["schemas"]["WebhookErrorCode"];
            /** @description A human-readable explanation. */
            message: string;
        };
        /** @description The members of an envelope with `status` `error`. */
        ErrorEnvelope: {
            /** @constant */
            status: "error";
            data: null;
            error: components["schemas"]["WebhookError"];
        };
        /** @description A Face Match session that ended without a result. */
        FaceMatchCompletedError: components["schemas"]["EnvelopeBase"] & components["schemas"]["ErrorEnvelope"] & {
            /** @constant */
            event_type: "verification.face-match.completed";
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "error";
        };
        /** @description The body of a `verification.face-match.completed` webhook. */
        FaceMatchCompleted: components["schemas"]["FaceMatchCompletedSuccess"] | components["schemas"]["FaceMatchCompletedError"];
        /** @description An ID Check session that produced a result. */
        IdCheckCompletedSuccess: components["schemas"]["EnvelopeBase"] & {
            /** @constant */
            event_type: "verification.id-check.completed";
            /** @constant */
            status: "success";
            data: components["schemas"]["IdCheckResult"];
            error: null;
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "success";
        };
        /** @description An ID Check session that ended without a result. */
        IdCheckCompletedError: components["schemas"]["EnvelopeBase"] & components["schemas"]["ErrorEnvelope"] & {
            /** @constant */
            event_type: "verification.id-check.completed";
        } & {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            status: "error";
        };
        /** @description The body of a `verification.id-check.completed` webhook. */
        IdCheckCompleted: components["schemas"]["IdCheckCompletedSuccess"] | components["schemas"]["IdCheckCompletedError"];
        /** @description Which account, which list, and who changed it. */
        ListAccountChange: {
            list_name: string;
            account_id: string;
            /** @description Who made the change: `api_key:` and the first 12 hex digits of the SHA-256 of the key that made the request (the List API, the Account API, or the `lists` of an authenticate); `cli` (`trustgate` commands); `rule:` and the id of the rule whose list action it was. */
            actor: string;
        };
        /** @description The members of a list event. */
        ListAccountEvent: {
            /** @description Unique id of this event, stable across delivery attempts (`x-event-id`). */
            request_id: string;
            project_id: string;
            event_type: components["schemas"]["EventType"];
            /**
             * Format: date-time
             * @description When the list changed.
             */
            occurred_at: string;
            data: components["schemas"]["ListAccountChange"];
        };
        /** @description The body of a `list.account_added` webhook. */
        ListAccountAdded: components["schemas"]["ListAccountEvent"] & {
            /** @constant */
            event_type: "list.account_added";
        };
        /** @description The body of a `list.account_removed` webhook. */
        ListAccountRemoved: components["schemas"]["ListAccountEvent"] & {
            /** @constant */
            event_type: "list.account_removed";
        };
        /** @description The evaluation the rules matched in, and what they did. */
        RuleMatchedData: {
            /** @description The `request_id` of the evaluation's answer. */
            evaluation_request_id: string;
            /** @enum {string} */
            kind: "authenticate" | "unauthenticated";
            session_id: string;
            /** @description The account authenticated; null for an unauthenticated evaluation. */
            account_id: string | null;
            /**
             * @description The evaluation's decision, after the rules.
             * @enum {string}
             */
            decision: "Real" | "Fake";
            /** @description The id of the rule that set the decision; null when the scores and lists decided. */
            decided_by: string | null;
            rules_version: number;
            /** @description The ids of the rules that matched, in the document's order. */
            matched: string[];
            tags: string[];
        };
        /** @description The body of an `evaluation.rule_matched` webhook. */
        EvaluationRuleMatched: {
            /** @description Unique id of this event, stable across delivery attempts (`x-event-id`). */
            request_id: string;
            project_id: string;
            /** @constant */
            event_type: "evaluation.rule_matched";
            /**
             * Format: date-time
             * @description When the evaluation was made.
             */
            occurred_at: string;
            data: components["schemas"]["RuleMatchedData"];
        };
        /** @description What a test event says. */
        WebhookTestData: {
            /**
             * @description Always true; a receiver can tell the test event by it as well as by its `event_type`.
             * @constant
             */
            test: true;
            /** @description A human-readable explanation. */
            message: string;
        };
        /** @description The body of a `webhook.test` event, sent by `trustgate webhooks test`. */
        WebhookTest: components["schemas"]["EnvelopeBase"] & {
            /** @constant */
            event_type: "webhook.test";
            /** @constant */
            status: "success";
            data: components["schemas"]["WebhookTestData"];
            error: null;
        };
    };
    responses: {
        /** @description The project has no case with this id. */
        CaseNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The case or its accounts are not as the request expects: an account is already in an
         *     active case (the message names it), the case is closed, or it changed since
         *     `expected_version`. Nothing was written.
         */
        CaseConflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The project has no account with this id. */
        AccountNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The account was labelled by another request at the same time; nothing was written, and
         *     the request may be sent again.
         */
        LabelledConcurrently: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The project's settings were changed by another request between this one's read and
         *     its write; nothing was written, and the request may be sent again.
         */
        ProjectChangedConcurrently: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The account kept changing under the evaluation: authenticates of one account queue one
         *     behind the other in a process, and one that finds the account changed by another
         *     process when it writes is evaluated again on fresh facts, up to eight times in all.
         *     Seen only when many servers authenticate one account at the same instant; nothing was
         *     written, and the request may be sent again.
         */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description No OpenID Connect provider is configured (`OIDC_ISSUER`). */
        OidcNotConfigured: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A part of the service this operation needs is not installed or not configured (the analysis engine, the media storage). */
        ServiceUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The capture token does not belong to this verification session. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The request is invalid (the message names the field and the rule), or the account or
         *     list it names does not exist in this project (`Account not found`, `List not found`),
         *     or the change cannot be made (`List already exists`, `Account is not on the list`).
         */
        AccountOrListBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The request is invalid (the message names the field and the rule: a query parameter
         *     the operation does not have is refused too, a JSON body that nests arrays and objects
         *     more than 64 levels deep, and a number that is not finite, such as `1e400`), or the
         *     session was not found (`Session ID not found`), or it can no longer be evaluated, or
         *     the request is not well-formed HTTP.
         */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The credentials are valid but do not allow this operation: the operator's role is
         *     below the one it needs, a state-changing request made with the console cookie lacks
         *     the session's CSRF token (`x-csrf-token`), a read-only API key sent a request other
         *     than a `GET`, or a read-only API key called the one `GET` that writes
         *     (`GET /liveness/session`, which only a full-access key may call).
         */
        NotPermitted: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The `x-api-key` header is missing or names no key of any project, or the console
         *     session cookie is missing, unknown, expired or of a disabled operator.
         */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request body is larger than the service accepts (1 MB). */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request (its head, or its body) did not arrive in time; the connection is closed. */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request line and headers together are larger than the server reads (16 KB); the connection is closed. */
        RequestHeaderFieldsTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The API key has used up its requests for the current minute, or the client's address has presented too many unknown API keys in it (failed authentications are limited per address: `AUTH_FAILURE_LIMIT_PER_IP`); or, on the SDK's endpoint, the address or the project has used up its session posts; or, on the public verification link, the address or the project has used up its visits; or, on a backtest, as many backtests as the server runs at once, of the project or in all, are running. */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before the next request is accepted. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description An unexpected failure inside the service. The body carries no internals. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The project has no rules draft with this id. */
        RuleDraftNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The rules are no longer at the version the request was made over (another version was
         *     published since), or the draft was already published or rejected; nothing was written.
         */
        RulesVersionMoved: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The credentials do not allow publishing: the four-eyes rule (the draft's author may not
         *     publish it), or as `NotPermitted` (a role below admin, no CSRF token, a read-only key).
         */
        PublishNotPermitted: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The project has no webhook with this event id. */
        WebhookDeliveryNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The project has no evaluation with this request id. */
        EvaluationNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The request is invalid (the message names the field and the rule), or the project
         *     has groups enabled and the session would have no account (`error` is
         *     `groups_enabled`: a session without an account has no group to be matched within).
         */
        SessionCreationRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": (components["schemas"]["LivenessError"] & {
                    error?: components["schemas"]["SessionCreationErrorCode"];
                }) | components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description No `project_id` (`missing_project_id`), a project with groups enabled
         *     (`groups_enabled`), or another invalid request: an unknown project, or a parameter
         *     that breaks its rule (the message names it; such answers have no `error` code).
         */
        PublicRedirectRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": (components["schemas"]["LivenessError"] & {
                    error?: components["schemas"]["PublicRedirectErrorCode"];
                }) | components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The request is invalid (the message names the field and the rule), or the session
         *     cannot be enrolled: `error` gives the reason, as verify-face and verify-id do
         *     (`session_not_found`, `session_not_started`, `id_scan_not_complete`,
         *     `session_not_complete`, `liveness_check_failed`, `id_scan_failed`), or
         *     `session_already_tied_to_an_account` (the session is another account's) or
         *     `session_older_than_30_days`.
         */
        EnrollmentRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": (components["schemas"]["LivenessError"] & {
                    error?: components["schemas"]["EnrollErrorCode"];
                }) | components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The request is invalid (the message names the field and the rule), or there is
         *     nothing to compare: `error` gives the reason, as verify-face does for the session
         *     (`session_not_found`, `session_not_valid_for_this_endpoint` for an ID Check session,
         *     `session_not_started`, `session_not_complete`, `liveness_check_failed`), or
         *     `account_not_found` (the account has no enrolled face besides this session's).
         */
        IdentityVerificationRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": (components["schemas"]["LivenessError"] & {
                    error?: components["schemas"]["VerifyIdentityErrorCode"];
                }) | components["schemas"]["ErrorBody"];
            };
        };
        /**
         * @description The request is invalid (the message names the field and the rule), or the session
         *     has no result to give: then `error` says why, `success` is false and `request_id`
         *     names this answer.
         */
        VerificationResultUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["VerificationResultError"] | components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: {
        /** @description The case's id. */
        CaseId: string;
        /** @description The webhook's event id (`request_id`, sent as `x-event-id`). */
        WebhookRequestId: components["schemas"]["RequestId"];
        /** @description The draft's id (`draft_id`). */
        RuleDraftId: string;
        /** @description When `true`, the response includes `linked_accounts`. */
        AccountsLinked: boolean;
        /** @description The customer's identifier of the account. */
        AccountId: components["schemas"]["Text"];
        /** @description The capture token from the hosted page's URL. */
        CaptureToken: components["schemas"]["Text"];
        /** @description The list's name. */
        ListNameParam: components["schemas"]["ListName"];
        /**
         * @description The order: `id` (by `account.id`), or `score`: the highest `account_score` of the
         *     latest evaluation first, accounts of equal score by `account.id` descending; accounts
         *     never evaluated have no score and are left out of it.
         */
        SearchAccountSort: "id" | "score";
        /** @description Only those whose latest decision is this one. */
        SearchDecision: components["schemas"]["Decision"];
        /** @description Only the accounts on this list; for sessions, those authenticated with an account on it. */
        SearchList: components["schemas"]["ListName"];
        /** @description Only those whose latest `account_score` is at least this (unevaluated ones are left out). */
        SearchMinScore: components["schemas"]["Score"];
        /** @description Only those whose latest `account_score` is at most this (unevaluated ones are left out). */
        SearchMaxScore: components["schemas"]["Score"];
        /** @description Only the sessions that started at or after this time. */
        SearchFrom: string;
        /** @description Only the sessions that started before this time. */
        SearchTo: string;
        /** @description Only the accounts last seen at or after this time. */
        SearchSeenFrom: string;
        /** @description Only the accounts last seen before this time. */
        SearchSeenTo: string;
        /** @description Only the sessions whose latest evaluation raised this risk signal (its boolean was true). */
        SearchSignal: components["schemas"]["RiskSignalName"];
        /** @description Only the sessions located in this country; for accounts, those whose latest session was (`country`). */
        SearchCountry: components["schemas"]["CountryCode"];
        /**
         * @description Only the accounts with this email address, compared as linking compares addresses
         *     (trimmed, lower-cased, and a provider's aliases folded: `Ada.L+shop@gmail.com` finds the
         *     account of `adal@gmail.com`). Read from the accounts' address index. The `@` may be sent
         *     as it is or as `%40`; a `+` must be sent as `%2B` (in a query string a bare `+` is a space).
         */
        SearchEmail: string;
        /**
         * @description Only the accounts whose email address is at this domain (case-insensitive); for sessions,
         *     those authenticated with such an account.
         */
        SearchEmailDomain: string;
        /** @description Only the sessions authenticated with this account. */
        SearchAccountId: string;
        /** @description Only this session (its summary as the search lists it, with its latest evaluation's `evaluation_request_id`). */
        SearchSessionId: components["schemas"]["SessionId"];
        /** @description Only the sessions of this `device_id` (the SDK's id kept in the browser or app); for accounts, those that used it. */
        SearchDeviceId: string;
        /**
         * @description Only the accounts that used a browser with this hardware and rendering fingerprint (the
         *     `device` match of linked accounts). Counted as linking counts it: at most the first
         *     1,502 accounts of a fingerprint are found.
         */
        SearchFingerprint: string;
        /** @description Only the sessions from this IPv4 or IPv6 address; for accounts, those with a session from it. */
        SearchIpAddress: string;
        /**
         * @description Only the sessions from this address block: an IPv4 `/24` or an IPv6 `/64` in CIDR
         *     notation (`81.2.69.0/24`, `2001:db8:1:2::/64`); for accounts, those with a session from it.
         */
        SearchNetwork: string;
        /** @description At most this many items in the page. */
        SearchLimit: number;
        /** @description The `next_cursor` of the previous page (opaque). */
        SearchCursor: string;
        /** @description `csv` (text/csv) or `ndjson` (application/x-ndjson, one JSON object per line). */
        ExportFormat: "csv" | "ndjson";
        /**
         * @description `t=<unix seconds>,h=<signed header names>,v1=<hex>`, where `h` lists the signed
         *     header names in lower case, sorted and separated by spaces
         *     (`content-type x-event-id x-event-type`), and
         *     `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}"))`
         *     keyed with the project's webhook secret as a UTF-8 string. Reject the webhook when
         *     the signature does not match (compare in constant time) or when `t` is more than
         *     300 seconds from the receiver's clock. Each delivery attempt is signed with the time
         *     of that attempt. For the grace period of a rotated secret (`rotateWebhookSecret`) the
         *     header carries a second `v1`, under the previous secret, after the new secret's:
         *     accept the webhook when any `v1` matches any secret you hold (`verifyWebhook` of the
         *     client package takes a list of secrets).
         * @example t=1773933769,h=content-type x-event-id x-event-type,v1=388bce05b5ef3e4c9a2a3b0fb6b7a0f8b86e1d0d3c8d1a2c7c9e2f0a4b6d8e1f
         */
        Signature: string;
        /**
         * @description The webhook's `request_id`; the same on every delivery attempt of the webhook.
         * @example 5ded1748-8c2f-4ef4-8276-32af793f62b0
         */
        EventId: string;
        /**
         * @description The webhook's `event_type`.
         * @example verification.face-match.completed
         */
        EventType: components["schemas"]["EventType"];
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the session, as created by the SDK. */
                session_id: components["schemas"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session, in its top-level form. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    authenticateSession: {
        parameters: {
            query?: {
                /** @description When `true`, the response includes `linked_accounts`. */
                accounts_linked?: components["parameters"]["AccountsLinked"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthenticateRequest"];
            };
        };
        responses: {
            /** @description The evaluation of the session for the account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthenticateResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    evaluateUnauthenticatedSession: {
        parameters: {
            query?: {
                /** @description When `true`, the response includes `linked_accounts`. */
                accounts_linked?: components["parameters"]["AccountsLinked"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UnauthenticatedRequest"];
            };
        };
        responses: {
            /** @description The evaluation of the session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthenticatedResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getVerificationSession: {
        parameters: {
            query?: {
                /** @description The SDK session the user came from; the capture is compared with it. */
                referring_session_id?: components["schemas"]["SessionId"];
                /** @description `true` starts an ID Check; absent or `false`, a Face Match. */
                id?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session and the hosted page's address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationSessionCreated"];
                };
            };
            400: components["responses"]["SessionCreationRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    createVerificationSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateVerificationSession"];
            };
        };
        responses: {
            /** @description The session and the hosted page's address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationSessionCreated"];
                };
            };
            400: components["responses"]["SessionCreationRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelVerificationSession: {
        parameters: {
            query: {
                /** @description The capture token from the hosted page's URL. */
                token: components["parameters"]["CaptureToken"];
            };
            header?: never;
            path: {
                /** @description The verification session's id. */
                session_id: components["schemas"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session's end, and where to send the user. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationSessionEnded"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    uploadVerificationCapture: {
        parameters: {
            query: {
                /** @description The capture token from the hosted page's URL. */
                token: components["parameters"]["CaptureToken"];
                /** @description The step this image belongs to. */
                kind: components["schemas"]["CaptureKind"];
            };
            header?: never;
            path: {
                /** @description The verification session's id. */
                session_id: components["schemas"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example (the JPEG image's bytes) */
                "image/jpeg": string;
                /** @example (the PNG image's bytes) */
                "image/png": string;
                /** @example (the WebP image's bytes) */
                "image/webp": string;
            };
        };
        responses: {
            /** @description The capture was stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureStored"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description The image is larger than 8 MB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not a JPEG, PNG or WebP image (by its first bytes), or its `Content-Type` is not one of theirs. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    completeVerificationSession: {
        parameters: {
            query: {
                /** @description The capture token from the hosted page's URL. */
                token: components["parameters"]["CaptureToken"];
                /** @description The web SDK's session id on the hosted page, whose device and network facts go into the result. */
                device_session_id?: components["schemas"]["SessionId"];
            };
            header?: never;
            path: {
                /** @description The verification session's id. */
                session_id: components["schemas"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How the session ended, or that the user may try again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationCompletion"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    verifyFace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyRequest"];
            };
        };
        responses: {
            /** @description The Face Match result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaceMatchResult"];
                };
            };
            400: components["responses"]["VerificationResultUnavailable"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    verifyId: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyRequest"];
            };
        };
        responses: {
            /** @description The ID Check result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdCheckResult"];
                };
            };
            400: components["responses"]["VerificationResultUnavailable"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    enrollAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EnrollRequest"];
            };
        };
        responses: {
            /** @description The session is the account's enrolled face. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Enrolled"];
                };
            };
            400: components["responses"]["EnrollmentRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    verifyIdentity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyIdentityRequest"];
            };
        };
        responses: {
            /** @description Whether the faces are the same person. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentityVerified"];
                };
            };
            400: components["responses"]["IdentityVerificationRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    redirectToVerification: {
        parameters: {
            query?: {
                /** @description The project (its id, public like the SDK's). Without it the answer is `400` `missing_project_id`. */
                project_id?: string;
                /** @description `true` starts an ID Check; absent or `false`, a Face Match. */
                id?: boolean;
                /** @description The SDK session the user came from; the capture is compared with it. */
                referring_session_id?: components["schemas"]["SessionId"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The hosted page of the new session, with its capture token. */
            302: {
                headers: {
                    /** @description The hosted page's address, on the service's public base URL. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["PublicRedirectRefused"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountResponse"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    putAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountUpdate"];
            };
        };
        responses: {
            /** @description The account after the update. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountResponse"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account is erased. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountDeleted"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getAccountSessions: {
        parameters: {
            query?: {
                /** @description How many sessions to return. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountSessions"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getAccountLinkedAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The linked accounts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountLinks"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getAccountRing: {
        parameters: {
            query?: {
                /** @description How far to follow links (1 or 2). */
                hops?: number;
            };
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ring. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountRing"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    blockAccountRing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RingBlockRequest"];
            };
        };
        responses: {
            /** @description The ring's accounts are on `block` (with `dry_run`, what would be done). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RingBlocked"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listAccountVerifications: {
        parameters: {
            query?: {
                /** @description How many sessions to return. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's verification sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountVerifications"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    labelAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountLabelInput"];
            };
        };
        responses: {
            /** @description The label, as stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountLabelled"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LabelledConcurrently"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listAccountLabels: {
        parameters: {
            query?: {
                /** @description How many labels to return. */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the account's labels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountLabels"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getLabelReport: {
        parameters: {
            query?: {
                /** @description The start of the range (included); default 30 days before `to`. */
                from?: string;
                /** @description The end of the range (excluded); default now. */
                to?: string;
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
                    "application/json": components["schemas"]["LabelReport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                /**
                 * @description The order: `id` (by `account.id`), or `score`: the highest `account_score` of the
                 *     latest evaluation first, accounts of equal score by `account.id` descending; accounts
                 *     never evaluated have no score and are left out of it.
                 */
                sort?: components["parameters"]["SearchAccountSort"];
                /** @description Only those whose latest decision is this one. */
                decision?: components["parameters"]["SearchDecision"];
                /** @description Only the accounts on this list; for sessions, those authenticated with an account on it. */
                list?: components["parameters"]["SearchList"];
                /** @description Only those whose latest `account_score` is at least this (unevaluated ones are left out). */
                min_score?: components["parameters"]["SearchMinScore"];
                /** @description Only those whose latest `account_score` is at most this (unevaluated ones are left out). */
                max_score?: components["parameters"]["SearchMaxScore"];
                /** @description Only the accounts last seen at or after this time. */
                from?: components["parameters"]["SearchSeenFrom"];
                /** @description Only the accounts last seen before this time. */
                to?: components["parameters"]["SearchSeenTo"];
                /** @description Only the sessions located in this country; for accounts, those whose latest session was (`country`). */
                country?: components["parameters"]["SearchCountry"];
                /**
                 * @description Only the accounts with this email address, compared as linking compares addresses
                 *     (trimmed, lower-cased, and a provider's aliases folded: `Ada.L+shop@gmail.com` finds the
                 *     account of `adal@gmail.com`). Read from the accounts' address index. The `@` may be sent
                 *     as it is or as `%40`; a `+` must be sent as `%2B` (in a query string a bare `+` is a space).
                 */
                email?: components["parameters"]["SearchEmail"];
                /**
                 * @description Only the accounts whose email address is at this domain (case-insensitive); for sessions,
                 *     those authenticated with such an account.
                 */
                email_domain?: components["parameters"]["SearchEmailDomain"];
                /** @description Only the sessions of this `device_id` (the SDK's id kept in the browser or app); for accounts, those that used it. */
                device_id?: components["parameters"]["SearchDeviceId"];
                /**
                 * @description Only the accounts that used a browser with this hardware and rendering fingerprint (the
                 *     `device` match of linked accounts). Counted as linking counts it: at most the first
                 *     1,502 accounts of a fingerprint are found.
                 */
                fingerprint?: components["parameters"]["SearchFingerprint"];
                /** @description Only the sessions from this IPv4 or IPv6 address; for accounts, those with a session from it. */
                ip_address?: components["parameters"]["SearchIpAddress"];
                /**
                 * @description Only the sessions from this address block: an IPv4 `/24` or an IPv6 `/64` in CIDR
                 *     notation (`81.2.69.0/24`, `2001:db8:1:2::/64`); for accounts, those with a session from it.
                 */
                network?: components["parameters"]["SearchNetwork"];
                /** @description At most this many items in the page. */
                limit?: components["parameters"]["SearchLimit"];
                /** @description The `next_cursor` of the previous page (opaque). */
                cursor?: components["parameters"]["SearchCursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of accounts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    exportAccounts: {
        parameters: {
            query: {
                /** @description `csv` (text/csv) or `ndjson` (application/x-ndjson, one JSON object per line). */
                format: components["parameters"]["ExportFormat"];
                /**
                 * @description The order: `id` (by `account.id`), or `score`: the highest `account_score` of the
                 *     latest evaluation first, accounts of equal score by `account.id` descending; accounts
                 *     never evaluated have no score and are left out of it.
                 */
                sort?: components["parameters"]["SearchAccountSort"];
                /** @description Only those whose latest decision is this one. */
                decision?: components["parameters"]["SearchDecision"];
                /** @description Only the accounts on this list; for sessions, those authenticated with an account on it. */
                list?: components["parameters"]["SearchList"];
                /** @description Only those whose latest `account_score` is at least this (unevaluated ones are left out). */
                min_score?: components["parameters"]["SearchMinScore"];
                /** @description Only those whose latest `account_score` is at most this (unevaluated ones are left out). */
                max_score?: components["parameters"]["SearchMaxScore"];
                /** @description Only the accounts last seen at or after this time. */
                from?: components["parameters"]["SearchSeenFrom"];
                /** @description Only the accounts last seen before this time. */
                to?: components["parameters"]["SearchSeenTo"];
                /** @description Only the sessions located in this country; for accounts, those whose latest session was (`country`). */
                country?: components["parameters"]["SearchCountry"];
                /**
                 * @description Only the accounts with this email address, compared as linking compares addresses
                 *     (trimmed, lower-cased, and a provider's aliases folded: `Ada.L+shop@gmail.com` finds the
                 *     account of `adal@gmail.com`). Read from the accounts' address index. The `@` may be sent
                 *     as it is or as `%40`; a `+` must be sent as `%2B` (in a query string a bare `+` is a space).
                 */
                email?: components["parameters"]["SearchEmail"];
                /**
                 * @description Only the accounts whose email address is at this domain (case-insensitive); for sessions,
                 *     those authenticated with such an account.
                 */
                email_domain?: components["parameters"]["SearchEmailDomain"];
                /** @description Only the sessions of this `device_id` (the SDK's id kept in the browser or app); for accounts, those that used it. */
                device_id?: components["parameters"]["SearchDeviceId"];
                /**
                 * @description Only the accounts that used a browser with this hardware and rendering fingerprint (the
                 *     `device` match of linked accounts). Counted as linking counts it: at most the first
                 *     1,502 accounts of a fingerprint are found.
                 */
                fingerprint?: components["parameters"]["SearchFingerprint"];
                /** @description Only the sessions from this IPv4 or IPv6 address; for accounts, those with a session from it. */
                ip_address?: components["parameters"]["SearchIpAddress"];
                /**
                 * @description Only the sessions from this address block: an IPv4 `/24` or an IPv6 `/64` in CIDR
                 *     notation (`81.2.69.0/24`, `2001:db8:1:2::/64`); for accounts, those with a session from it.
                 */
                network?: components["parameters"]["SearchNetwork"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The accounts, streamed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listSessions: {
        parameters: {
            query?: {
                /** @description Only those whose latest decision is this one. */
                decision?: components["parameters"]["SearchDecision"];
                /** @description Only those whose latest `account_score` is at least this (unevaluated ones are left out). */
                min_score?: components["parameters"]["SearchMinScore"];
                /** @description Only those whose latest `account_score` is at most this (unevaluated ones are left out). */
                max_score?: components["parameters"]["SearchMaxScore"];
                /** @description Only the sessions that started at or after this time. */
                from?: components["parameters"]["SearchFrom"];
                /** @description Only the sessions that started before this time. */
                to?: components["parameters"]["SearchTo"];
                /** @description Only the sessions whose latest evaluation raised this risk signal (its boolean was true). */
                signal?: components["parameters"]["SearchSignal"];
                /** @description Only the accounts on this list; for sessions, those authenticated with an account on it. */
                list?: components["parameters"]["SearchList"];
                /**
                 * @description Only the accounts whose email address is at this domain (case-insensitive); for sessions,
                 *     those authenticated with such an account.
                 */
                email_domain?: components["parameters"]["SearchEmailDomain"];
                /** @description Only the sessions located in this country; for accounts, those whose latest session was (`country`). */
                country?: components["parameters"]["SearchCountry"];
                /** @description Only the sessions authenticated with this account. */
                account_id?: components["parameters"]["SearchAccountId"];
                /** @description Only this session (its summary as the search lists it, with its latest evaluation's `evaluation_request_id`). */
                session_id?: components["parameters"]["SearchSessionId"];
                /** @description Only the sessions of this `device_id` (the SDK's id kept in the browser or app); for accounts, those that used it. */
                device_id?: components["parameters"]["SearchDeviceId"];
                /** @description Only the sessions from this IPv4 or IPv6 address; for accounts, those with a session from it. */
                ip_address?: components["parameters"]["SearchIpAddress"];
                /**
                 * @description Only the sessions from this address block: an IPv4 `/24` or an IPv6 `/64` in CIDR
                 *     notation (`81.2.69.0/24`, `2001:db8:1:2::/64`); for accounts, those with a session from it.
                 */
                network?: components["parameters"]["SearchNetwork"];
                /** @description At most this many items in the page. */
                limit?: components["parameters"]["SearchLimit"];
                /** @description The `next_cursor` of the previous page (opaque). */
                cursor?: components["parameters"]["SearchCursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionPage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    exportSessions: {
        parameters: {
            query: {
                /** @description `csv` (text/csv) or `ndjson` (application/x-ndjson, one JSON object per line). */
                format: components["parameters"]["ExportFormat"];
                /** @description Only those whose latest decision is this one. */
                decision?: components["parameters"]["SearchDecision"];
                /** @description Only those whose latest `account_score` is at least this (unevaluated ones are left out). */
                min_score?: components["parameters"]["SearchMinScore"];
                /** @description Only those whose latest `account_score` is at most this (unevaluated ones are left out). */
                max_score?: components["parameters"]["SearchMaxScore"];
                /** @description Only the sessions that started at or after this time. */
                from?: components["parameters"]["SearchFrom"];
                /** @description Only the sessions that started before this time. */
                to?: components["parameters"]["SearchTo"];
                /** @description Only the sessions whose latest evaluation raised this risk signal (its boolean was true). */
                signal?: components["parameters"]["SearchSignal"];
                /** @description Only the accounts on this list; for sessions, those authenticated with an account on it. */
                list?: components["parameters"]["SearchList"];
                /**
                 * @description Only the accounts whose email address is at this domain (case-insensitive); for sessions,
                 *     those authenticated with such an account.
                 */
                email_domain?: components["parameters"]["SearchEmailDomain"];
                /** @description Only the sessions located in this country; for accounts, those whose latest session was (`country`). */
                country?: components["parameters"]["SearchCountry"];
                /** @description Only the sessions authenticated with this account. */
                account_id?: components["parameters"]["SearchAccountId"];
                /** @description Only the sessions of this `device_id` (the SDK's id kept in the browser or app); for accounts, those that used it. */
                device_id?: components["parameters"]["SearchDeviceId"];
                /** @description Only the sessions from this IPv4 or IPv6 address; for accounts, those with a session from it. */
                ip_address?: components["parameters"]["SearchIpAddress"];
                /**
                 * @description Only the sessions from this address block: an IPv4 `/24` or an IPv6 `/64` in CIDR
                 *     notation (`81.2.69.0/24`, `2001:db8:1:2::/64`); for accounts, those with a session from it.
                 */
                network?: components["parameters"]["SearchNetwork"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions, streamed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getLists: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lists. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lists"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getList: {
        parameters: {
            query?: {
                /** @description How many account ids to return. */
                limit?: number;
                /** @description Return account ids after this one. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description The list's name. */
                list_name: components["parameters"]["ListNameParam"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListPage"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    createList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The list's name. */
                list_name: components["parameters"]["ListNameParam"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateListRequest"];
            };
        };
        responses: {
            /** @description The list is created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListChange"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The list's name. */
                list_name: components["parameters"]["ListNameParam"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list is deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListChange"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    addAccountToList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The list's name. */
                list_name: components["parameters"]["ListNameParam"];
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account is on the list. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListChange"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    removeAccountFromList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The list's name. */
                list_name: components["parameters"]["ListNameParam"];
                /** @description The customer's identifier of the account. */
                account_id: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account is not on the list any more. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListChange"];
                };
            };
            400: components["responses"]["AccountOrListBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectUpdate"];
            };
        };
        responses: {
            /** @description The project's settings after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectSettings"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["ProjectChangedConcurrently"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: {
                /** @description How long the previous secret keeps signing beside the new one (0 = not at all). */
                grace_period_seconds?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretRotated"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["ProjectChangedConcurrently"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                /** @description How many events to return. */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEvents"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listOperators: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project's operators. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Operators"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listCases: {
        parameters: {
            query?: {
                /** @description `active` (default: `open` and `in_review`), one status, or `all`. */
                status?: "active" | "open" | "in_review" | "closed" | "all";
                /** @description Only the cases assigned to this operator (`GET /operators`), or `none` for the unassigned. */
                assignee?: string;
                /** @description Only the cases this rule opened. */
                rule_id?: string;
                /** @description Only the cases of this account. */
                account_id?: string;
                /** @description `oldest` first (default; the age a case has waited), `newest` first, or highest `score` first. */
                sort?: "oldest" | "newest" | "score";
                /** @description How many cases to return. */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CasePage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    openCase: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseInput"];
            };
        };
        responses: {
            /** @description The case, as opened. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["CaseConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. */
                case_id: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["CaseNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    updateCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. */
                case_id: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseUpdate"];
            };
        };
        responses: {
            /** @description The case, as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["CaseNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["CaseConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    closeCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. */
                case_id: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseClose"];
            };
        };
        responses: {
            /** @description The case, closed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Case"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["CaseNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["CaseConflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    addCaseNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The case's id. */
                case_id: components["parameters"]["CaseId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaseNoteInput"];
            };
        };
        responses: {
            /** @description The note, as stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaseNote"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["CaseNotFound"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getStats: {
        parameters: {
            query?: {
                /** @description The first day (UTC, `YYYY-MM-DD`); default 13 days before `to`. */
                from?: string;
                /** @description The last day (UTC, `YYYY-MM-DD`); default today. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationStats"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only the webhooks of this event (one of webhooks.yaml's `SubscribableEventType`). */
                event_type?: string;
                /** @description Only the webhooks in this state. */
                status?: components["schemas"]["WebhookDeliveryStatus"];
                /** @description Only the webhooks queued at or after this time. */
                from?: string;
                /** @description Only the webhooks queued before this time. */
                to?: string;
                /** @description How many webhooks to return. */
                limit?: number;
                /** @description The `next_cursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhook deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveries"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's event id (`request_id`, sent as `x-event-id`). */
                request_id: components["parameters"]["WebhookRequestId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["WebhookDeliveryNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's event id (`request_id`, sent as `x-event-id`). */
                request_id: components["parameters"]["WebhookRequestId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, queued again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryReplayed"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["WebhookDeliveryNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The current rules document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rules"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    putRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RulesDocument"];
            };
        };
        responses: {
            /** @description The stored rules document, with its new version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rules"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["ProjectChangedConcurrently"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    consoleLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConsoleLoginRequest"];
            };
        };
        responses: {
            /** @description Signed in; the session cookie is set. */
            200: {
                headers: {
                    /** @description The session cookie (`__Host-tg_session=…; Path=/; Expires=…; HttpOnly; Secure; SameSite=Strict`). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description The email and password do not name an active operator (the same answer for an unknown email). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    consoleLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out; the cookie is cleared. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getConsoleSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The operator and its session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSession"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getConsoleSignInOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ways to sign in. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSignInOptions"];
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    startConsoleOidcSignIn: {
        parameters: {
            query?: {
                /** @description Passed on to the provider (OpenID Connect's `login_hint`), e.g. the email the operator typed. */
                login_hint?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider's authorization URL. */
            302: {
                headers: {
                    /** @description The provider's authorization endpoint with the request's parameters. */
                    Location?: string;
                    /** @description The sign-in's cookie (`__Host-tg_oidc=…; Path=/; Max-Age=600; HttpOnly; Secure; SameSite=Lax`). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["OidcNotConfigured"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description The provider's discovery document could not be read. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    finishConsoleOidcSignIn: {
        parameters: {
            query?: {
                /** @description As OAuth 2.0 defines it, printable ASCII (RFC 6749's VSCHAR). */
                code?: string;
                /** @description As OAuth 2.0 defines it, printable ASCII (RFC 6749's VSCHAR). */
                state?: string;
                /** @description As OAuth 2.0 defines it, printable ASCII (RFC 6749's VSCHAR). */
                error?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Back to the console, signed in or on the sign-in page with `sign_in_error`. */
            303: {
                headers: {
                    /** @description `<base>/console/`, or `<base>/console/?sign_in_error=<reason>`. */
                    Location?: string;
                    /** @description The session cookie when signed in (as `POST /console/login` sets it); the sign-in's cookie cleared. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["OidcNotConfigured"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getEvaluation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `request_id` of the authenticate or unauthenticated answer. */
                request_id: components["schemas"]["RequestId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evaluation's receipt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationReceipt"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["EvaluationNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    testRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RulesTestRequest"];
            };
        };
        responses: {
            /** @description What the draft would have changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RulesTestResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listRuleFields: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every field, in the order docs/rules.md lists them. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleFields"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    previewRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RulesPreviewRequest"];
            };
        };
        responses: {
            /** @description Each rule's matches over the recent evaluations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RulesPreview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    listRuleDrafts: {
        parameters: {
            query?: {
                /** @description How many drafts, the newest. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The drafts, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleDrafts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    createRuleDraft: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleDraftRequest"];
            };
        };
        responses: {
            /** @description The draft, pending. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleDraft"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["RulesVersionMoved"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getRuleDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The draft's id (`draft_id`). */
                draft_id: components["parameters"]["RuleDraftId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The draft. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleDraft"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["RuleDraftNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    publishRuleDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The draft's id (`draft_id`). */
                draft_id: components["parameters"]["RuleDraftId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The draft, published, with the version it became. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleDraft"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["PublishNotPermitted"];
            404: components["responses"]["RuleDraftNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["RulesVersionMoved"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    rejectRuleDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The draft's id (`draft_id`). */
                draft_id: components["parameters"]["RuleDraftId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleDraftRejection"];
            };
        };
        responses: {
            /** @description The draft, rejected. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleDraft"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["NotPermitted"];
            404: components["responses"]["RuleDraftNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["RulesVersionMoved"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    createIngestChallenge: {
        parameters: {
            query?: {
                /** @description The project's id, as a query parameter. */
                project_id?: string;
            };
            header?: {
                /** @description The project's id (public, like the SDK's script tag). Required unless `project_id` is given. */
                "x-project-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A fresh challenge. Not cacheable. */
            200: {
                headers: {
                    /** @description `no-store`: a challenge is for one post. */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestChallenge"];
                };
            };
            /** @description The project is missing or unknown. Nothing is stored. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    ingestSession: {
        parameters: {
            query?: {
                /** @description The project's id, for `sendBeacon`, which cannot set headers. */
                project_id?: string;
            };
            header?: {
                /** @description The project's id (public, like the SDK's script tag). Required unless `project_id` is given. */
                "x-project-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IngestSession"];
                "text/plain": components["schemas"]["IngestSession"];
            };
        };
        responses: {
            /** @description The session is stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestSessionResponse"];
                };
            };
            /**
             * @description The body is invalid (the message names the field), the project is unknown, the
             *     session belongs to another project, or it is older than 24 hours. Nothing is stored.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service and its database are up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description The database cannot be reached. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Not ready (yet, or any more); `checks` says what it waits for. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description `METRICS_TOKEN` is set and the request has no `Authorization: Bearer` header with it. */
            401: {
                headers: {
                    /** @description `Bearer realm="metrics"`. */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Metrics are off (`METRICS=off`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
        };
    };
    faceMatchCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description `t=<unix seconds>,h=<signed header names>,v1=<hex>`, where `h` lists the signed
                 *     header names in lower case, sorted and separated by spaces
                 *     (`content-type x-event-id x-event-type`), and
                 *     `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}"))`
                 *     keyed with the project's webhook secret as a UTF-8 string. Reject the webhook when
                 *     the signature does not match (compare in constant time) or when `t` is more than
                 *     300 seconds from the receiver's clock. Each delivery attempt is signed with the time
                 *     of that attempt. For the grace period of a rotated secret (`rotateWebhookSecret`) the
                 *     header carries a second `v1`, under the previous secret, after the new secret's:
                 *     accept the webhook when any `v1` matches any secret you hold (`verifyWebhook` of the
                 *     client package takes a list of secrets).
                 * @example t=1773933769,h=content-type x-event-id x-event-type,v1=388bce05b5ef3e4c9a2a3b0fb6b7a0f8b86e1d0d3c8d1a2c7c9e2f0a4b6d8e1f
                 */
                "x-signature": components["parameters"]["Signature"];
                /**
                 * @description The webhook's `request_id`; the same on every delivery attempt of the webhook.
                 * @example 5ded1748-8c2f-4ef4-8276-32af793f62b0
                 */
                "x-event-id": components["parameters"]["EventId"];
                /**
                 * @description The webhook's `event_type`.
                 * @example verification.face-match.completed
                 */
                "x-event-type": components["parameters"]["EventType"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FaceMatchCompleted"];
            };
        };
        responses: {
            /** @description Any `2xx` status acknowledges the webhook; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a timeout or a connection error makes Trustgate retry. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    idCheckCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description `t=<unix seconds>,h=<signed header names>,v1=<hex>`, where `h` lists the signed
                 *     header names in lower case, sorted and separated by spaces
                 *     (`content-type x-event-id x-event-type`), and
                 *     `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}"))`
                 *     keyed with the project's webhook secret as a UTF-8 string. Reject the webhook when
                 *     the signature does not match (compare in constant time) or when `t` is more than
                 *     300 seconds from the receiver's clock. Each delivery attempt is signed with the time
                 *     of that attempt. For the grace period of a rotated secret (`rotateWebhookSecret`) the
                 *     header carries a second `v1`, under the previous secret, after the new secret's:
                 *     accept the webhook when any `v1` matches any secret you hold (`verifyWebhook` of the
                 *     client package takes a list of secrets).
                 * @example t=1773933769,h=content-type x-event-id x-event-type,v1=388bce05b5ef3e4c9a2a3b0fb6b7a0f8b86e1d0d3c8d1a2c7c9e2f0a4b6d8e1f
                 */
                "x-signature": components["parameters"]["Signature"];
                /**
                 * @description The webhook's `request_id`; the same on every delivery attempt of the webhook.
                 * @example 5ded1748-8c2f-4ef4-8276-32af793f62b0
                 */
                "x-event-id": components["parameters"]["EventId"];
                /**
                 * @description The webhook's `event_type`.
                 * @example verification.face-match.completed
                 */
                "x-event-type": components["parameters"]["EventType"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdCheckCompleted"];
            };
        };
        responses: {
            /** @description Any `2xx` status acknowledges the webhook; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a timeout or a connection error makes Trustgate retry. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listAccountAdded: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description `t=<unix seconds>,h=<signed header names>,v1=<hex>`, where `h` lists the signed
                 *     header names in lower case, sorted and separated by spaces
                 *     (`content-type x-event-id x-event-type`), and
                 *     `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}"))`
                 *     keyed with the project's webhook secret as a UTF-8 string. Reject the webhook when
                 *     the signature does not match (compare in constant time) or when `t` is more than
                 *     300 seconds from the receiver's clock. Each delivery attempt is signed with the time
                 *     of that attempt. For the grace period of a rotated secret (`rotateWebhookSecret`) the
                 *     header carries a second `v1`, under the previous secret, after the new secret's:
                 *     accept the webhook when any `v1` matches any secret you hold (`verifyWebhook` of the
                 *     client package takes a list of secrets).
                 * @example t=1773933769,h=content-type x-event-id x-event-type,v1=388bce05b5ef3e4c9a2a3b0fb6b7a0f8b86e1d0d3c8d1a2c7c9e2f0a4b6d8e1f
                 */
                "x-signature": components["parameters"]["Signature"];
                /**
                 * @description The webhook's `request_id`; the same on every delivery attempt of the webhook.
                 * @example 5ded1748-8c2f-4ef4-8276-32af793f62b0
                 */
                "x-event-id": components["parameters"]["EventId"];
                /**
                 * @description The webhook's `event_type`.
                 * @example verification.face-match.completed
                 */
                "x-event-type": components["parameters"]["EventType"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ListAccountAdded"];
            };
        };
        responses: {
            /** @description Any `2xx` status acknowledges the webhook; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a timeout or a connection error makes Trustgate retry. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listAccountRemoved: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description `t=<unix seconds>,h=<signed header names>,v1=<hex>`, where `h` lists the signed
                 *     header names in lower case, sorted and separated by spaces
                 *     (`content-type x-event-id x-event-type`), and
                 *     `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}"))`
                 *     keyed with the project's webhook secret as a UTF-8 string. Reject the webhook when
                 *     the signature does not match (compare in constant time) or when `t` is more than
                 *     300 seconds from the receiver's clock. Each delivery attempt is signed with the time
                 *     of that attempt. For the grace period of a rotated secret (`rotateWebhookSecret`) the
                 *     header carries a second `v1`, under the previous secret, after the new secret's:
                 *     accept the webhook when any `v1` matches any secret you hold (`verifyWebhook` of the
                 *     client package takes a list of secrets).
                 * @example t=1773933769,h=content-type x-event-id x-event-type,v1=388bce05b5ef3e4c9a2a3b0fb6b7a0f8b86e1d0d3c8d1a2c7c9e2f0a4b6d8e1f
                 */
                "x-signature": components["parameters"]["Signature"];
                /**
                 * @description The webhook's `request_id`; the same on every delivery attempt of the webhook.
                 * @example 5ded1748-8c2f-4ef4-8276-32af793f62b0
                 */
                "x-event-id": components["parameters"]["EventId"];
                /**
                 * @description The webhook's `event_type`.
                 * @example verification.face-match.completed
                 */
                "x-event-type": components["parameters"]["EventType"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ListAccountRemoved"];
            };
        };
        responses: {
            /** @description Any `2xx` status acknowledges the webhook; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a timeout or a connection error makes Trustgate retry. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    evaluationRuleMatched: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description `t=<unix seconds>,h=<signed header names>,v1=<hex>`, where `h` lists the signed
                 *     header names in lower case, sorted and separated by spaces
                 *     (`content-type x-event-id x-event-type`), and
                 *     `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}"))`
                 *     keyed with the project's webhook secret as a UTF-8 string. Reject the webhook when
                 *     the signature does not match (compare in constant time) or when `t` is more than
                 *     300 seconds from the receiver's clock. Each delivery attempt is signed with the time
                 *     of that attempt. For the grace period of a rotated secret (`rotateWebhookSecret`) the
                 *     header carries a second `v1`, under the previous secret, after the new secret's:
                 *     accept the webhook when any `v1` matches any secret you hold (`verifyWebhook` of the
                 *     client package takes a list of secrets).
                 * @example t=1773933769,h=content-type x-event-id x-event-type,v1=388bce05b5ef3e4c9a2a3b0fb6b7a0f8b86e1d0d3c8d1a2c7c9e2f0a4b6d8e1f
                 */
                "x-signature": components["parameters"]["Signature"];
                /**
                 * @description The webhook's `request_id`; the same on every delivery attempt of the webhook.
                 * @example 5ded1748-8c2f-4ef4-8276-32af793f62b0
                 */
                "x-event-id": components["parameters"]["EventId"];
                /**
                 * @description The webhook's `event_type`.
                 * @example verification.face-match.completed
                 */
                "x-event-type": components["parameters"]["EventType"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EvaluationRuleMatched"];
            };
        };
        responses: {
            /** @description Any `2xx` status acknowledges the webhook; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status, a timeout or a connection error makes Trustgate retry. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTest: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description `t=<unix seconds>,h=<signed header names>,v1=<hex>`, where `h` lists the signed
                 *     header names in lower case, sorted and separated by spaces
                 *     (`content-type x-event-id x-event-type`), and
                 *     `v1 = hex(HMAC-SHA256(secret, "{t}.{h}.{the values of the headers in h, joined by '.'}.{raw body}"))`
                 *     keyed with the project's webhook secret as a UTF-8 string. Reject the webhook when
                 *     the signature does not match (compare in constant time) or when `t` is more than
                 *     300 seconds from the receiver's clock. Each delivery attempt is signed with the time
                 *     of that attempt. For the grace period of a rotated secret (`rotateWebhookSecret`) the
                 *     header carries a second `v1`, under the previous secret, after the new secret's:
                 *     accept the webhook when any `v1` matches any secret you hold (`verifyWebhook` of the
                 *     client package takes a list of secrets).
                 * @example t=1773933769,h=content-type x-event-id x-event-type,v1=388bce05b5ef3e4c9a2a3b0fb6b7a0f8b86e1d0d3c8d1a2c7c9e2f0a4b6d8e1f
                 */
                "x-signature": components["parameters"]["Signature"];
                /**
                 * @description The webhook's `request_id`; the same on every delivery attempt of the webhook.
                 * @example 5ded1748-8c2f-4ef4-8276-32af793f62b0
                 */
                "x-event-id": components["parameters"]["EventId"];
                /**
                 * @description The webhook's `event_type`.
                 * @example verification.face-match.completed
                 */
                "x-event-type": components["parameters"]["EventType"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTest"];
            };
        };
        responses: {
            /** @description Any `2xx` status acknowledges the test event; `trustgate webhooks test` prints the answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status is printed by `trustgate webhooks test` as a failure; nothing is retried. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
