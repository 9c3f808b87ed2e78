/**
 * IP risk lists: open.ts loads and watches the files, stored.ts polls a store of texts (the
 * database on PostgreSQL), store.ts is that port and its files, edit.ts edits a list's text
 * (the CLI), sync.ts downloads the published ones, entries.ts parses, tables.ts looks up.
 */
export { normaliseIpListEntry } from './entries';
export {
  addToIpList,
  checkedEntry,
  entriesOfText,
  readIpList,
  removeFromIpList,
  textWithEntry,
  textWithoutEntry,
} from './edit';
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
export {
  allListTexts,
  fileListTexts,
  listKey,
  STORED_LIST_SOURCES,
  updateListText,
  type IpListTexts,
  type StoredListSource,
  type StoredListText,
} from './store';
export { openStoredIpLists } from './stored';
export { type SyncHeader } from './sync-file';
export { syncIpList, syncIpLists, SYNC_LIMITS, type SyncOutcome } from './sync';
