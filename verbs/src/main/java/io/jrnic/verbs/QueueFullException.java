package io.jrnic.verbs;

/** Posting would exceed the queue's capacity (maxSendWr / maxRecvWr / SRQ maxWr); nothing of the batch was posted. */
public final class QueueFullException extends VerbsException {
    public QueueFullException(String queue, int outstanding, int batch, int capacity) {
        super(queue + " full: " + outstanding + " outstanding + " + batch + " posted > capacity " + capacity);
    }
}
