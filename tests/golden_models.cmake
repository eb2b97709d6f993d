# upstream_golden_model(): the model upstream converted for a golden folder of shared/testdata/golden.
#
#   upstream_golden_model(DIR NAME_VAR FILES_VAR)
# DIR is golden/<path>/<stem>_<ext>/. NAME_VAR gets <path>_<stem>_<ext> with every other character as '_' (a test
# name); FILES_VAR gets the files to convert: upstream_generated.nnp when the folder has one, else the model
# testdata/<path>/<stem>.<ext> with custom_params.h5 of the folder and parameters.h5 beside the model when they
# exist, or nothing when the model is not in testdata.
function(upstream_golden_model dir name_var files_var)
  file(RELATIVE_PATH rel ${NN_TESTDATA_DIR}/golden ${dir})
  string(REGEX REPLACE "[^A-Za-z0-9_.]" "_" name ${rel})
  set(files "")
  if(EXISTS ${dir}/upstream_generated.nnp)
    set(files ${dir}/upstream_generated.nnp)
  else()
    string(REGEX REPLACE "_([A-Za-z0-9]+)$" ".\\1" model_rel ${rel})
    set(model ${NN_TESTDATA_DIR}/${model_rel})
    if(EXISTS ${model})
      set(files ${model})
      if(EXISTS ${dir}/custom_params.h5)
        list(APPEND files ${dir}/custom_params.h5)
      endif()
      get_filename_component(model_dir ${model} DIRECTORY)
      if(EXISTS ${model_dir}/parameters.h5)
        list(APPEND files ${model_dir}/parameters.h5)
      endif()
    endif()
  endif()
  set(${name_var} ${name} PARENT_SCOPE)
  set(${files_var} "${files}" PARENT_SCOPE)
endfunction()
