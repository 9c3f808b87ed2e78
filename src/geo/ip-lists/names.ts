/** The IP lists' names and where their files are. */
import path from 'node:path';
import type { IpListName } from '../../domain/signals/context';
import { PACKAGE_ROOT } from '../../spec';

export type { IpListName };
export const IP_LIST_NAMES: readonly IpListName[] = ['tor', 'vpn', 'proxy', 'datacenter', 'fraud', 'relay'];

export const SHIPPED_IP_LISTS_DIR = path.join(PACKAGE_ROOT, 'src', 'geo', 'data');

/** The operator's file for a list: `<dir>/<list>.txt`. */
export function ipListFile(dir: string, list: IpListName): string {
  return path.join(dir, `${list}.txt`);
}

/** Where `trustgate iplist sync` keeps the lists it downloads: `<dir>/synced`, apart from the operator's own files. */
export function syncedDir(dir: string): string {
  return path.join(dir, 'synced');
}

export function isIpListName(name: string): name is IpListName {
  return (IP_LIST_NAMES as readonly string[]).includes(name);
}
