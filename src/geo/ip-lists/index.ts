/**
 * IP risk lists: open.ts loads and watches them, edit.ts edits the operator's files (the CLI),
 * sync.ts downloads the published ones, entries.ts parses, tables.ts looks up.
 */
export { normaliseIpListEntry } from './entries';
export { addToIpList, readIpList, removeFromIpList } from './edit';
export { IP_LIST_NAMES, ipListFile, isIpListName, SHIPPED_IP_LISTS_DIR, syncedDir, type IpListName } from './names';
export {
  IpListFileError,
  openIpLists,
  type IpListMatch,
  type IpLists,
  type IpListSource,
  type IpListStatus,
  type IpListsOptions,
} from './open';
export { type SyncHeader } from './sync-file';
export { syncIpList, syncIpLists, SYNC_LIMITS, type SyncOutcome } from './sync';
