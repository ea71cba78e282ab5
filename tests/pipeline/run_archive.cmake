# Driver of the test of `make archive` (the root Makefile): only committed runs are archived (the
# hidden leftovers .<study>.partial-<pid> and .<study>.old-<pid> of interrupted solver runs are
# not), and a run whose archive cannot be written is neither listed in archive/index.tsv nor
# passed over in silence.
#   -DMAKE=<make> -DMAKEFILE=<the root Makefile> -DSCRATCH=<an empty directory to work in>
file(REMOVE_RECURSE ${SCRATCH})

# A run.json as the run writer lays it out: the archive target reads the run id from its line.
function(write_run dir id)
  file(WRITE ${SCRATCH}/${dir}/run.json "{\n  \"schema\": \"cm-run 1\",\n  \"paper\": \"p\",\n  \"study\": \"s\",\n  \"run_id\": \"${id}\",\n  \"scalars\": {}\n}\n")
endfunction()
write_run(results/p/s 0123456789abcdef)
write_run(results/p/.s.partial-4242 deadbeef00000001)
write_run(results/p/.s.old-4243 deadbeef00000002)
write_run(results/.q.partial-4244/s deadbeef00000003)

execute_process(COMMAND ${MAKE} --no-print-directory -f ${MAKEFILE} -C ${SCRATCH} archive
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make archive exited with ${rc}")
endif()
file(READ ${SCRATCH}/archive/index.tsv index)
if(NOT index STREQUAL "0123456789abcdef\tresults/p/s\n")
  message(FATAL_ERROR "archive/index.tsv lists more or less than the one committed run:\n${index}")
endif()
file(GLOB leftovers ${SCRATCH}/archive/deadbeef*)
if(leftovers OR NOT EXISTS ${SCRATCH}/archive/0123456789abcdef.tar.gz)
  message(FATAL_ERROR "archives of unfinished runs (${leftovers}) or none of the committed run")
endif()

# An archive that cannot be written (a directory where its temporary file goes): make fails and
# the run is not listed as archived.
write_run(results/p/t 1111222233334444)
file(MAKE_DIRECTORY ${SCRATCH}/archive/1111222233334444.tar.gz.partial)
execute_process(COMMAND ${MAKE} --no-print-directory -f ${MAKEFILE} -C ${SCRATCH} archive
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "make archive succeeded although the archive of results/p/t could not be written")
endif()
file(READ ${SCRATCH}/archive/index.tsv index)
if(index MATCHES "1111222233334444")
  message(FATAL_ERROR "archive/index.tsv lists a run that was not archived:\n${index}")
endif()
