package io.jrnic.verbs;

/**
 * An asynchronous event delivered to the device's handler on the device event thread.
 *
 * @param type      what happened
 * @param resource  the QueuePair, CompletionQueue, SharedReceiveQueue or RdmaDevice it concerns
 * @param context   that resource's context object (null for the device)
 * @param terminate the Terminate triple for QP_TERMINATE_* events, else null
 */
public record AsyncEvent(AsyncEventType type, Object resource, Object context, TerminateInfo terminate) {
}
