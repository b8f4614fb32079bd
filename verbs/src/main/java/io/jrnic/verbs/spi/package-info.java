/**
 * What a provider implements. The API ({@code io.jrnic.verbs}) validates every call, owns the
 * resource tree, the completion rings, work-request ownership and the QP state variable; a provider
 * only moves bytes and reports outcomes through the {@code *Upcalls} objects it is handed.
 *
 * <h2>Contract, in one place</h2>
 * <ol>
 * <li><b>Discovery</b>: {@link io.jrnic.verbs.spi.RdmaProvider} listed in
 * {@code META-INF/services/io.jrnic.verbs.spi.RdmaProvider}.</li>
 * <li><b>Threads</b>: every SPI method may be called from any application thread (never
 * concurrently for one QP's postSend, nor for one QP's postRecv: the API serialises each queue).
 * Upcalls may be made from any provider thread; the API never runs application code on the
 * calling thread of an upcall (callbacks go to the device event thread), except that
 * {@code QpUpcalls} methods return only after the completion is queued.</li>
 * <li><b>Work requests are lent, not copied</b>: a {@code SendWr}/{@code RecvWr} handed to
 * {@code postSend}/{@code postRecv} is immutable and valid until the provider retires it with
 * exactly one {@code sendDone}/{@code recvDone} (or {@code flushAll}). Inline sends must be copied
 * before {@code postSend} returns. The provider must never keep a reference after retiring it.</li>
 * <li><b>Retirement order</b>: send WRs are retired in posting order (RFC 5040 section 5.2, RDMAC
 * verbs: completions in SQ order, RDMA Read/atomic included); receive WRs of a QP's own RQ in posting
 * order; SRQ receives in the order the provider dequeued them. Out-of-order retirement throws
 * IllegalStateException back to the provider (a provider bug).</li>
 * <li><b>Unsignaled sends</b> are retired too (sendDone); the API queues a completion only for
 * signaled WRs (or QPs with signalAll) and for every non-SUCCESS status.</li>
 * <li><b>States</b>: the provider reports every state change as a
 * {@link io.jrnic.verbs.QpTrigger} through {@code QpUpcalls.transition}; the API applies
 * {@link io.jrnic.verbs.QpStateMachine} and throws IllegalQpTransitionException for illegal ones.
 * CONNECTED must be reported before {@code ConnectionUpcalls.established}. Consumer triggers
 * (MODIFY_TO_ERROR, RESET_TO_IDLE) are applied by the API and then passed to {@code QpSpi.modify}.</li>
 * <li><b>Errors</b>: on entering ERROR (any trigger) the provider stops processing, retires the WR
 * that failed with its error status (Terminate triple attached when one was sent or received, status
 * from {@link io.jrnic.verbs.TerminateInfo#toStatus()} for a received one), then calls
 * {@code flushAll()}, which retires all remaining WRs of the QP with WR_FLUSH_ERROR.
 * A Terminate is sent per RFC 5040 section 4.8 before TERMINATE_SENT is reported.</li>
 * <li><b>CQ overflow</b>: when a {@code sendDone/recvDone} returns false the completion was lost;
 * the provider treats it as a local catastrophic error of that QP (Terminate RDMAP/0/0x00, then
 * TERMINATE_SENT).</li>
 * <li><b>Memory</b>: a region's bytes are {@code MrSpi.memory().view()}; local SGEs name API
 * {@code MemoryRegion}s whose {@code stag()} the provider resolves in its own table. Remote
 * accesses are checked in this order (RFC 5040 section 6.4 / RFC 5041 section 3.2 / reference 5):
 * STag valid, not invalidated, key matches, same PD as the QP, access right, TO/length bounds
 * (zero-based or address-based as registered).</li>
 * <li><b>Close</b>: {@code close()} on any SPI object is called exactly once, after the API closed its
 * children. It must stop all use of the resource before returning; upcalls for a closed QP are
 * ignored (return false); the API flushes whatever the provider did not retire.</li>
 * </ol>
 */
package io.jrnic.verbs.spi;
