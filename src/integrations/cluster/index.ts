/**
 * keelson/cluster: one App per core on node:cluster, with signals forwarded, crashed workers
 * restarted, whole log lines and metrics summed across workers. No library to install.
 * @module
 */

export { type ClusterMetrics, inClusterWorker } from './ipc.js';
export { type ClusterOptions, runCluster } from './run-cluster.js';
