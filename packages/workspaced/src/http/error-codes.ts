/**
 * @module Every machine-readable error code the daemon answers with its HTTP status: the one
 * table the README documents and `ApiError` reads (the status is never chosen at a throw site).
 * Clients switch on `error.code`, never on messages. The sign-in, session, CSRF, Host and Origin
 * codes are @suite/web-auth's own table (`authErrorStatus`, documented there), taken in whole.
 */
import { authErrorStatus } from '@suite/web-auth';

export const errorStatus = {
  ...authErrorStatus,

  // Requests the daemon cannot read
  /** The body, query or path parameters fail their schema (types, ranges, unknown fields); `issues` lists each. Kept at 400 (see the README's errors section). */
  VALIDATION_FAILED: 400,
  /** The body is not JSON. */
  INVALID_JSON: 400,
  /** A JSON route got a body that is not `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The body is larger than the route accepts (1 MiB, more for file writes), or custom event `data` over its byte bound. */
  BODY_TOO_LARGE: 413,
  /** Custom event `data` nests deeper than its bound. */
  DATA_TOO_DEEP: 422,
  /** Unknown route or resource (a project, task, token, rule...). */
  NOT_FOUND: 404,
  /** Known route, other method (`Allow` names the one it takes). */
  METHOD_NOT_ALLOWED: 405,
  /** An unexpected failure; the daemon log has the cause. */
  INTERNAL: 500,

  // Setup, sign-in and callers
  /** `POST /setup` after the owner exists. */
  SETUP_COMPLETE: 409,
  /** `POST /setup` without the one-time setup token the daemon printed. */
  SETUP_TOKEN_INVALID: 401,
  /** A request carries both a session cookie and a bearer token. */
  AUTH_AMBIGUOUS: 400,
  /** The bearer token is unknown, revoked or expired. */
  AUTH_INVALID_TOKEN: 401,
  /** The MCP endpoint was called without a bearer token (`WWW-Authenticate: Bearer`). */
  TOKEN_REQUIRED: 401,
  /** The token's scopes do not cover this route. */
  TOKEN_SCOPE: 403,
  /** The caller's role (global or project) does not grant the permission; the suite's permission refusal (firewarden: `AUTH_FORBIDDEN`). */
  PERMISSION_DENIED: 403,
  /** A user may not create or change a user of a higher role than their own. */
  ROLE_TOO_HIGH: 403,
  /** The change would leave no enabled owner. */
  LAST_OWNER: 409,
  /** No such user. */
  USER_NOT_FOUND: 404,
  /** The username exists already. */
  USERNAME_TAKEN: 409,
  /** The username is not 3-64 of `A-Z a-z 0-9 . _ @ -` starting with a letter or digit. */
  USERNAME_INVALID: 400,
  /** The display name is too long or holds control characters. */
  DISPLAY_NAME_INVALID: 400,
  /** web-auth refused to leave no enabled user of a role; the daemon answers `LAST_OWNER` before it comes to that. */
  LAST_OF_ROLE: 409,
  /** The password is shorter than the minimum. */
  PASSWORD_TOO_SHORT: 400,
  /** The password is longer than the maximum. */
  PASSWORD_TOO_LONG: 400,
  /** The role is not one of the daemon's roles. */
  ROLE_INVALID: 400,
  /** The user already holds the maximum of live platform tokens. */
  TOO_MANY_TOKENS: 409,

  // Projects and files
  /** A project path that is not absolute, the file-system root, or a relative path that cannot name a file. */
  INVALID_PATH: 400,
  /** The project path does not exist. */
  PROJECT_PATH_MISSING: 400,
  /** The project's folder no longer exists. */
  PROJECT_ROOT_MISSING: 409,
  /** The path leads out of the project root (`..`, a symlink). */
  PATH_OUTSIDE_ROOT: 403,
  /** `.git` is read-only through the file routes. */
  PATH_READ_ONLY: 403,
  /** The daemon's data folder is never reachable through a project. */
  PATH_RESERVED: 403,
  /** No such file or folder. */
  FILE_NOT_FOUND: 404,
  /** The file is larger than the read or write limit. */
  FILE_TOO_LARGE: 413,
  /** The operating system refused the daemon on that path. */
  FILE_ACCESS_DENIED: 403,
  /** The path is a folder where a file is needed. */
  IS_A_DIRECTORY: 400,
  /** The path (or one of its parents) is not a folder where one is needed. */
  NOT_A_DIRECTORY: 400,
  /** The path is neither a file nor a folder (a device, a socket). */
  NOT_A_REGULAR_FILE: 400,
  /** Deleting a folder that is not empty (only empty folders are deleted). */
  DIRECTORY_NOT_EMPTY: 409,
  /** Content sent as base64 is not canonical base64. */
  INVALID_BASE64: 400,
  /** The file is not UTF-8 text; read it with `encoding=base64`. */
  NOT_UTF8: 422,
  /** The disk is full. */
  NO_SPACE: 507,
  /** The daemon already serves its maximum of large file reads (for the user or in all); see `Retry-After`. */
  TOO_MANY_LARGE_READS: 503,

  // Git
  /** The project folder is not a git repository. */
  NOT_A_GIT_REPOSITORY: 409,
  /** The operation changes the whole repository, and the project is only one of its folders. */
  GIT_NOT_REPOSITORY_ROOT: 409,
  /** A branch or ref name git would refuse. */
  INVALID_REF_NAME: 400,
  /** No such branch, tag or commit. */
  GIT_REF_NOT_FOUND: 404,
  /** No such path in that revision. */
  GIT_PATH_NOT_FOUND: 404,
  /** A branch of that name exists already. */
  GIT_BRANCH_EXISTS: 409,
  /** The branch is checked out in another worktree. */
  GIT_BRANCH_CHECKED_OUT: 409,
  /** Local changes would be overwritten. */
  GIT_DIRTY_WORKTREE: 409,
  /** A merge with unresolved conflicts is in progress. */
  GIT_CONFLICT: 409,
  /** Nothing is staged. */
  GIT_NOTHING_TO_COMMIT: 409,
  /** The branch moved while committing. */
  GIT_HEAD_MOVED: 409,
  /** The repository has no commit yet. */
  GIT_NO_COMMITS: 409,
  /** git refused the operation; the message is git's first line. */
  GIT_FAILED: 422,
  /** git produced more output than the daemon returns. */
  GIT_OUTPUT_TOO_LARGE: 413,
  /** git took too long and was stopped. */
  GIT_TIMEOUT: 504,
  /** git is not installed. */
  GIT_UNAVAILABLE: 503,

  // Tasks, terminals and previews
  /** A task changed with a stale `version` (`task` is the task now). */
  VERSION_CONFLICT: 409,
  /** A task terminal asked for before the task has a worktree. */
  NO_WORKTREE: 409,
  /** The task's worktree folder is gone. */
  WORKTREE_MISSING: 409,
  /** No agent profile of that name (`GET /agent-profiles` lists them). */
  AGENT_PROFILE_NOT_FOUND: 404,
  /** The profile's program is not on the daemon's PATH. */
  AGENT_UNAVAILABLE: 424,
  /** An attempt started without `base_branch` while the project's work tree is on no branch. */
  BASE_BRANCH_REQUIRED: 409,
  /** A diff, land or pull request for a task that has no attempt yet. */
  NO_ATTEMPT: 409,
  /** Stopping an attempt whose agent no longer runs. */
  ATTEMPT_NOT_RUNNING: 409,
  /** Landing or opening a pull request while the attempt's agent still runs (stop it or wait). */
  ATTEMPT_RUNNING: 409,
  /** The branch conflicts with its base branch; `paths` lists the conflicting files. Nothing was changed. */
  LAND_CONFLICT: 409,
  /** The work tree that has the base branch checked out has uncommitted changes (`paths`). */
  WORKTREE_DIRTY: 409,
  /** The base branch already holds everything of the attempt's branch. */
  NOTHING_TO_LAND: 409,
  /** A monorepo project's branch changes files outside the project's folder (`paths`). */
  LAND_OUTSIDE_PROJECT: 409,
  /** The project lands its tasks only through the workflow it names (`workflow`): its approval step guards landing. */
  LAND_REQUIRES_APPROVAL: 409,
  /** `land_requires_workflow` names no workflow, or one without an approval step before its land step. */
  LAND_WORKFLOW_INVALID: 422,
  /** No usable forge CLI (`gh`, `glab`) or remote for a pull request; `reason` says which. */
  FORGE_UNAVAILABLE: 424,
  /** Pushing the branch to the remote failed (git's first line in the message). */
  PUSH_FAILED: 502,
  /** The forge CLI refused to open the pull or merge request (its first line in the message). */
  FORGE_FAILED: 502,
  /** `cwd` is not a folder in the project. */
  INVALID_CWD: 400,
  /** The shell is not an executable absolute path or a program on PATH. */
  SHELL_NOT_FOUND: 400,
  /** The daemon runs its maximum number of terminals. */
  TOO_MANY_TERMINALS: 503,
  /** The user runs their maximum number of live terminals. */
  TERMINAL_QUOTA_EXCEEDED: 429,
  /** A WebSocket upgrade (terminal or event socket) past the 16 open sockets of one session; answered before any 101. */
  TOO_MANY_SOCKETS: 429,
  /** A preview port that is not a number from 1 to 65535. */
  INVALID_PORT: 400,
  /** The daemon's own ports are never previewed. */
  PREVIEW_PORT_REFUSED: 403,
  /** The preview origin got a proxy-style target (`GET http://host/`, `*`) instead of a path. */
  INVALID_REQUEST_TARGET: 400,
  /** The preview link's ticket is invalid, used or expired. */
  PREVIEW_TICKET_INVALID: 401,
  /** No live preview pass for the port (signed out, idle, or the right is gone). */
  PREVIEW_AUTH_REQUIRED: 401,
  /** An upgrade to another protocol than WebSocket on the preview origin. */
  UPGRADE_NOT_SUPPORTED: 400,
  /** Nothing answers on the previewed port. */
  PREVIEW_UPSTREAM_UNAVAILABLE: 502,

  // Workflows
  /** A workflow of that name exists. */
  WORKFLOW_EXISTS: 409,
  /** A stored workflow's command is refused by the no-shell guard. */
  WORKFLOW_COMMAND_REFUSED: 409,
  /** The run needs a project and none was given (`details` lists where the caller may start runs). */
  PROJECT_REQUIRED: 400,
  /** A variable the workflow needs has no value. */
  MISSING_VARIABLE: 400,
  /** A value for a variable the workflow does not use. */
  UNKNOWN_VARIABLE: 400,
  /** The run has ended: nothing to cancel or answer. */
  WORKFLOW_RUN_NOT_ACTIVE: 409,
  /** An approval for a run that is not waiting for one. */
  WORKFLOW_RUN_NOT_WAITING: 409,
  /** The run waits for an approval before anything else. */
  WORKFLOW_RUN_WAITING_APPROVAL: 409,
  /** A workflow with a `land` step was started without the `task_id` it lands. */
  TASK_REQUIRED: 422,

  // Nodes
  /** A node of that name is registered. */
  NODE_NAME_TAKEN: 409,
  /** The node is revoked: register it again to pair. */
  NODE_REVOKED: 409,
  /** This daemon holds no credential for the node. */
  NODE_NOT_PAIRED: 409,
  /** The pairing code is wrong, expired, used or out of attempts. */
  PAIRING_CODE_INVALID: 401,
  /** The node refused the pairing code. */
  PAIRING_REJECTED: 422,
  /** A node called this daemon with an unknown or revoked credential. */
  NODE_CREDENTIAL_INVALID: 401,
  /** The node refused this daemon's credential. */
  NODE_CREDENTIAL_REFUSED: 502,
  /** The node answered with another key than the registered one, or unsigned. */
  NODE_IDENTITY_MISMATCH: 502,
  /** The node answered something other than the expected JSON. */
  NODE_BAD_ANSWER: 502,
  /** The node answered more than the daemon reads. */
  NODE_ANSWER_TOO_LARGE: 502,
  /** The node answered with a redirect (nodes are called only at their registered URL). */
  NODE_REDIRECT_REFUSED: 502,
  /** The node answered an error status. */
  NODE_ERROR: 502,
  /** The node cannot be reached. */
  NODE_UNREACHABLE: 502,
  /** The node did not answer in time. */
  NODE_TIMEOUT: 504,

  // Services, notifications, platform, MCP, plugins
  /** A service of that name is registered. */
  SERVICE_EXISTS: 409,
  /** The user holds the maximum of notification rules. */
  TOO_MANY_RULES: 409,
  /** An outbound target (webhook URL, push endpoint) the address policy refuses. */
  TARGET_REFUSED: 422,
  /** The user holds the maximum of push subscriptions (devices); remove one first. */
  TOO_MANY_PUSH_SUBSCRIPTIONS: 409,
  /** A webhook of that name exists. */
  WEBHOOK_EXISTS: 409,
  /** No MCP tool of that name. */
  TOOL_NOT_FOUND: 404,
  /** A plugin with that id is registered. */
  PLUGIN_EXISTS: 409,
  /** The manifest's id differs from the plugin's id in the path. */
  PLUGIN_ID_MISMATCH: 400,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/**
 * Codes of the `{"error": {code, message}}` frames the sockets send in answer to a client's frame
 * (on the event socket inside `{"op": "error"}`). They carry no HTTP status and the socket stays
 * open; a client branches on them like on `error.code`.
 */
const socketErrorCodes = {
  /** Either socket: a frame that is not JSON or not one of the socket's messages (binary, unknown op, bad field). */
  INVALID_MESSAGE: 'INVALID_MESSAGE',
  /** Event socket: a `sub` to a stream that does not exist or that the caller may not see (the two look alike). */
  STREAM_NOT_FOUND: 'STREAM_NOT_FOUND',
  /** Terminal socket: input or resize from a watcher whose role lacks terminal.write. */
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** Event socket: authorizing a `sub` failed unexpectedly (a database error...); send it again. */
  INTERNAL: 'INTERNAL',
} as const;

export type SocketErrorCode = keyof typeof socketErrorCodes;
