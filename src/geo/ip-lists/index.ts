/** IP risk lists: open.ts loads and watches them, edit.ts edits the operator's files (the CLI), entries.ts parses, tables.ts looks up. */
export { normaliseIpListEntry } from './entries';
export { addToIpList, readIpList, removeFromIpList } from './edit';
export { IP_LIST_NAMES, ipListFile, isIpListName, SHIPPED_IP_LISTS_DIR, type IpListName } from './names';
export { IpListFileError, openIpLists, type IpListMatch, type IpLists, type IpListsOptions } from './open';
