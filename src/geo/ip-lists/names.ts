/** The IP lists' names and where their files are. */
import path from 'node:path';
import type { IpListName } from '../../domain/signals/context';
import { PACKAGE_ROOT } from '../../spec';

export type { IpListName };
export const IP_LIST_NAMES: readonly IpListName[] = ['tor', 'vpn', 'proxy', 'datacenter', 'fraud'];

export const SHIPPED_IP_LISTS_DIR = path.join(PACKAGE_ROOT, 'src', 'geo', 'data');

/** The operator's file for a list: `<dir>/<list>.txt`. */
export function ipListFile(dir: string, list: IpListName): string {
  return path.join(dir, `${list}.txt`);
}

export function isIpListName(name: string): name is IpListName {
  return (IP_LIST_NAMES as readonly string[]).includes(name);
}
