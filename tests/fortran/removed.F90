! SPDX-License-Identifier: BSD-3-Clause
! Every MPI-1 function removed in MPI-3 (and MPI_SIZEOF, MPI_INFO_GET,
! deprecated in MPI-4) that real Fortran codes still call, each checked:
! through the mpi module (-DUSE_MODULE) or mpif.h. 2 ranks. Prints
! "removed: ok" from rank 0 when every check passed.
program removed
#ifdef USE_MODULE
  use mpi
  implicit none
#else
  implicit none
  include 'mpif.h'
#endif
  external :: on_error
  integer :: ierr, rank, nranks, bad, i
  integer :: hvec, hind, strct, key, dupcomm, eh, got_eh, info, vlen, sz
  ! MPI-1's addresses, extents and displacements are INTEGERs
  integer :: a1, a2, ext, lb, ub, disp(2)
  integer :: lens(2), types(2), attr, status(MPI_STATUS_SIZE)
  logical :: flag
  double precision :: x(8)
  character(len=16) :: value
  integer :: calls
  common /removed_errors/ calls
  calls = 0
  bad = 0
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)

  ! MPI_ADDRESS: consecutive doubles are 8 bytes apart
  call MPI_ADDRESS(x(1), a1, ierr)
  call MPI_ADDRESS(x(2), a2, ierr)
  call check(a2 - a1 == 8, 'MPI_ADDRESS')

  ! MPI_TYPE_HVECTOR(2, 1, 16 bytes, double): extent 16 + 8 = 24
  call MPI_TYPE_HVECTOR(2, 1, 16, MPI_DOUBLE_PRECISION, hvec, ierr)
  call MPI_TYPE_COMMIT(hvec, ierr)
  call MPI_TYPE_EXTENT(hvec, ext, ierr)
  call MPI_TYPE_LB(hvec, lb, ierr)
  call MPI_TYPE_UB(hvec, ub, ierr)
  call check(ext == 24 .and. lb == 0 .and. ub == 24, 'MPI_TYPE_HVECTOR/EXTENT/LB/UB')

  ! MPI_TYPE_HINDEXED(2, (1, 1), (0, 16) bytes, integer): extent 16 + 4 = 20
  lens = 1
  disp(1) = 0
  disp(2) = 16
  call MPI_TYPE_HINDEXED(2, lens, disp, MPI_INTEGER, hind, ierr)
  call MPI_TYPE_EXTENT(hind, ext, ierr)
  call check(ext == 20, 'MPI_TYPE_HINDEXED')

  ! MPI_TYPE_STRUCT((1, 1), (0, 8), (integer, double)): extent 16
  types(1) = MPI_INTEGER
  types(2) = MPI_DOUBLE_PRECISION
  disp(2) = 8
  call MPI_TYPE_STRUCT(2, lens, disp, types, strct, ierr)
  call MPI_TYPE_EXTENT(strct, ext, ierr)
  call check(ext == 16, 'MPI_TYPE_STRUCT')
  call MPI_TYPE_FREE(strct, ierr)
  call MPI_TYPE_FREE(hind, ierr)

  ! the hvector carries x(1) and x(3) from rank 0 to rank 1
  if (rank == 0) then
    x = (/ (dble(i), i = 1, 8) /)
    call MPI_SEND(x, 1, hvec, 1, 5, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    x = 0
    call MPI_RECV(x, 1, hvec, 0, 5, MPI_COMM_WORLD, status, ierr)
    call check(x(1) == 1 .and. x(2) == 0 .and. x(3) == 3, 'data of a hvector')
  end if
  call MPI_TYPE_FREE(hvec, ierr)

  ! MPI_KEYVAL_CREATE with MPI_DUP_FN: MPI_ATTR_PUT/GET, copied by a dup,
  ! MPI_ATTR_DELETE, MPI_KEYVAL_FREE (MPI-1 attributes are INTEGERs)
  call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, key, 7, ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, key, 42, ierr)
  call MPI_ATTR_GET(MPI_COMM_WORLD, key, attr, flag, ierr)
  call check(flag .and. attr == 42, 'MPI_ATTR_PUT/GET')
  call MPI_COMM_DUP(MPI_COMM_WORLD, dupcomm, ierr)
  attr = 0
  call MPI_ATTR_GET(dupcomm, key, attr, flag, ierr)
  call check(flag .and. attr == 42, 'MPI_DUP_FN copies the attribute')
  call MPI_ATTR_DELETE(dupcomm, key, ierr)
  call MPI_ATTR_GET(dupcomm, key, attr, flag, ierr)
  call check(.not. flag, 'MPI_ATTR_DELETE')
  call MPI_COMM_FREE(dupcomm, ierr)
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, key, ierr)
  call MPI_KEYVAL_FREE(key, ierr)
  call check(key == MPI_KEYVAL_INVALID, 'MPI_KEYVAL_FREE')

  ! MPI_ERRHANDLER_CREATE/SET/GET: the handler is called with the error
  call MPI_ERRHANDLER_CREATE(on_error, eh, ierr)
  call MPI_ERRHANDLER_SET(MPI_COMM_WORLD, eh, ierr)
  call MPI_ERRHANDLER_GET(MPI_COMM_WORLD, got_eh, ierr)
  call check(got_eh == eh, 'MPI_ERRHANDLER_GET')
  call MPI_SEND(x, 1, MPI_DOUBLE_PRECISION, nranks, 0, MPI_COMM_WORLD, ierr)
  call check(calls == 1 .and. ierr /= MPI_SUCCESS, 'MPI_ERRHANDLER_SET: handler called')
  call MPI_ERRHANDLER_SET(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)

  ! MPI_INFO_GET and MPI_INFO_GET_VALUELEN (deprecated in MPI-4)
  call MPI_INFO_CREATE(info, ierr)
  call MPI_INFO_SET(info, 'simpi', 'yes', ierr)
  call MPI_INFO_GET_VALUELEN(info, 'simpi', vlen, flag, ierr)
  call check(flag .and. vlen == 3, 'MPI_INFO_GET_VALUELEN')
  call MPI_INFO_GET(info, 'simpi', 16, value, flag, ierr)
  call check(flag .and. value == 'yes', 'MPI_INFO_GET')
  call MPI_INFO_FREE(info, ierr)

#ifdef USE_MODULE
  ! MPI_SIZEOF (the mpi module's generic): one element's bytes
  call MPI_SIZEOF(x, sz, ierr)
  call check(sz == 8, 'MPI_SIZEOF(double precision array)')
  call MPI_SIZEOF(rank, sz, ierr)
  call check(sz == 4, 'MPI_SIZEOF(integer)')
  call MPI_SIZEOF((1.0, 2.0), sz, ierr)
  call check(sz == 8, 'MPI_SIZEOF(complex)')
#else
  sz = 0
#endif

  call MPI_ALLREDUCE(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. bad == 0) print '(a)', 'removed: ok'
  call MPI_FINALIZE(ierr)

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,2a)', 'rank ', rank, ': FAILED ', what
      bad = bad + 1
    end if
  end subroutine check

end program removed

! The error handler (MPI_Handler_function: the communicator and the code)
subroutine on_error(comm, code)
  implicit none
  integer :: comm, code
  integer :: calls
  common /removed_errors/ calls
  if (comm /= 0 .or. code /= 0) calls = calls + 1
end subroutine on_error
