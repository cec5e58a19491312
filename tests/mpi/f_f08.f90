! SPDX-License-Identifier: BSD-3-Clause
! ranks: 4 options: --cpu=ignore --set nodes=4 --set cores_per_node=1 --set inter.model=affine --set inter.latency=10us --set inter.bandwidth=100MB/s
! The mpi_f08 module: handles as derived types (compared with ==, .ne.
! through MPI_VAL), MPI_Status's public components, optional ierror,
! TYPE(*), DIMENSION(..) buffers of any rank and type (scalars, 1-d, 2-d),
! MPI_IN_PLACE and MPI_STATUS_IGNORE, non-blocking requests, a derived
! datatype, a communicator split, CHARACTER arguments, and the time of a
! ping-pong by the model: T(S) = 10 us + S x 10 ns; 5 round trips of 100
! REAL(8) (800 bytes, eager) cost 5 x 2 x T(800) = 5 x 2 x 18 us = 180 us.
program f08
    use mpi_f08
    implicit none
    integer :: rank, nranks, ierr, errs, i, total, color, srank, ssize, count, resultlen
    type(MPI_Comm) :: half
    type(MPI_Status) :: st
    type(MPI_Request) :: reqs(2)
    type(MPI_Datatype) :: pair
    double precision :: t0, t1, ping(100)
    integer :: grid(3, 2), got(3, 2), vec(4), one, pairs(2, 4)
    real :: r
    character(len=MPI_MAX_PROCESSOR_NAME) :: pname
    type(MPI_Op) :: myop
    integer :: ranks3(3, 1), sum2(2)
    type(MPI_Group) :: world, odd
    procedure(MPI_User_function) :: add_ints

    errs = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    if (ierr /= MPI_SUCCESS .or. nranks /= 4) call fail('size')
    if (.not. (MPI_COMM_WORLD == MPI_COMM_WORLD) .or. MPI_COMM_WORLD%MPI_VAL == MPI_COMM_SELF%MPI_VAL) &
        call fail('handle comparison')

    ! ping-pong of 100 REAL(8) between ranks 0 and 1, timed
    ping = rank
    call MPI_Barrier(MPI_COMM_WORLD)
    t0 = MPI_Wtime()
    do i = 1, 5
        if (rank == 0) then
            call MPI_Send(ping, 100, MPI_DOUBLE_PRECISION, 1, 7, MPI_COMM_WORLD)
            call MPI_Recv(ping, 100, MPI_DOUBLE_PRECISION, 1, 8, MPI_COMM_WORLD, st)
            if (st%MPI_SOURCE /= 1 .or. st%MPI_TAG /= 8) call fail('status components')
        else if (rank == 1) then
            call MPI_Recv(ping, 100, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_WORLD, st, ierr)
            call MPI_Get_count(st, MPI_DOUBLE_PRECISION, count)
            if (count /= 100) call fail('get_count')
            call MPI_Send(ping, 100, MPI_DOUBLE_PRECISION, 0, 8, MPI_COMM_WORLD)
        end if
    end do
    t1 = MPI_Wtime()
    if (rank == 0 .and. abs((t1 - t0) * 1d6 - 180d0) > 1d-6) then
        print '(a, f12.6)', 'ping-pong took (us) ', (t1 - t0) * 1d6
        call fail('ping-pong time')
    end if
    if (rank <= 1 .and. any(ping /= 0)) call fail('ping-pong data') ! rank 0's zeros, back

    ! a scalar, in place, and a 2-d array through the same routines
    one = rank + 1
    call MPI_Allreduce(MPI_IN_PLACE, one, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (one /= 10) call fail('allreduce in place of a scalar')
    grid = reshape([(i * 10 + rank, i = 1, 6)], [3, 2])
    call MPI_Allreduce(grid, got, 6, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
    if (got(2, 2) /= 53) call fail('allreduce of a 2-d array')
    r = real(rank)
    call MPI_Bcast(r, 1, MPI_REAL, 3, MPI_COMM_WORLD)
    if (r /= 3.0) call fail('bcast of a REAL scalar')

    ! non-blocking exchange around the ring, statuses ignored
    vec = -1
    call MPI_Irecv(vec(1), 1, MPI_INTEGER, mod(rank + 3, 4), 1, MPI_COMM_WORLD, reqs(1))
    call MPI_Isend(rank, 1, MPI_INTEGER, mod(rank + 1, 4), 1, MPI_COMM_WORLD, reqs(2))
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
    if (vec(1) /= mod(rank + 3, 4)) call fail('ring')
    if (reqs(1) /= MPI_REQUEST_NULL) call fail('request freed')

    ! a derived datatype: two integers, gathered at rank 0
    call MPI_Type_contiguous(2, MPI_INTEGER, pair)
    call MPI_Type_commit(pair)
    vec(1:2) = [rank, -rank]
    call MPI_Gather(vec(1:2), 1, pair, pairs, 1, pair, 0, MPI_COMM_WORLD)
    call MPI_Type_free(pair)
    if (rank == 0) then
        do i = 1, 4
            if (pairs(1, i) /= i - 1 .or. pairs(2, i) /= 1 - i) call fail('gather of a derived datatype')
        end do
    end if

    ! split into halves; CHARACTER out-arguments
    color = rank / 2
    call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, half)
    call MPI_Comm_rank(half, srank)
    call MPI_Comm_size(half, ssize)
    if (ssize /= 2 .or. srank /= 1 - mod(rank, 2)) call fail('split')
    call MPI_Comm_free(half)
    if (half /= MPI_COMM_NULL) call fail('freed communicator is MPI_COMM_NULL')
    call MPI_Get_processor_name(pname, resultlen)
    if (resultlen < 1 .or. len_trim(pname) /= resultlen) call fail('processor name')

    ! a user operation (MPI_User_function: TYPE(C_PTR) vectors)
    call MPI_Op_create(add_ints, .true., myop)
    vec(1:2) = [rank, 1]
    call MPI_Allreduce(vec(1:2), sum2, 2, MPI_INTEGER, myop, MPI_COMM_WORLD)
    if (sum2(1) /= 6 .or. sum2(2) /= 4) call fail('user operation')
    call MPI_Op_free(myop)
    ! a group by ranges (INTEGER ranges(3, *)): the odd ranks 1 and 3
    call MPI_Comm_group(MPI_COMM_WORLD, world)
    ranks3(:, 1) = [1, 3, 2]
    call MPI_Group_range_incl(world, 1, ranks3, odd)
    call MPI_Group_size(odd, ssize)
    if (ssize /= 2) call fail('group_range_incl')
    call MPI_Group_free(odd)
    call MPI_Group_free(world)

    call MPI_Reduce(errs, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
    if (rank == 0 .and. total == 0) print '(a)', 'No Errors'
    call MPI_Finalize()
contains
    subroutine fail(what)
        character(len=*), intent(in) :: what
        errs = errs + 1
        print '(a, i0, 2a)', 'rank ', rank, ': ', what
    end subroutine fail
end program f08

! element-wise sum of integers, as an MPI_User_function
subroutine add_ints(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    use mpi_f08, only: MPI_Datatype
    implicit none
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = a + b
    if (datatype%MPI_VAL < 0) b = -1
end subroutine add_ints
