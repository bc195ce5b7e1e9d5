/**
 * The etcd adapters of the store ports. This is the only folder that imports `etcd3`.
 *
 * @module
 */
export { EtcdStore } from "./etcd_store.ts";
export { EtcdLeaderStore } from "./etcd_leader_store.ts";
export { createEtcdClient, type EtcdConnection, type EtcdTlsMaterial } from "./client.ts";
export { etcdConnection } from "./connection.ts";
