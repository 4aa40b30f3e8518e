package io.sluice.cluster.status;

import io.sluice.cluster.controller.ControllerEpochDescriptor;
import io.sluice.cluster.state.ClusterState;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What {@link ClusterStatusReader} read from ZooKeeper at one moment ({@code sluice cluster status} prints it).
 * Immutable; safe to share.
 *
 * @param clusterId       content of /cluster/id, null when absent
 * @param controllerId    broker id recorded in /controller_epoch, {@link ControllerEpochDescriptor#NO_CONTROLLER}
 *                        when none was ever elected
 * @param controllerEpoch epoch recorded in /controller_epoch, -1 when none was ever elected
 * @param registered      ids of the brokers registered in /brokers/ids (a live ZooKeeper session each), ascending
 * @param state           the cluster state as far as it was read; its brokers are those the controller last
 *                        published as live
 * @param publishedSeq    the newest delta sequence number ZooKeeper held when reading began (-1: none); the state is
 *                        complete when its applied sequence number reached it
 */
public record ClusterStatus(
        String clusterId,
        int controllerId,
        int controllerEpoch,
        SortedSet<Integer> registered,
        ClusterState state,
        long publishedSeq) {

    public ClusterStatus {
        registered = Collections.unmodifiableSortedSet(new TreeSet<>(registered));
    }

    public boolean hasController() {
        return controllerId != ControllerEpochDescriptor.NO_CONTROLLER;
    }

    /** Whether the state read covers everything published when reading began. */
    public boolean caughtUp() {
        return state.appliedSeq() >= publishedSeq;
    }
}
