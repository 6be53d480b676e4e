"""The methods ``dataclasses`` writes for the value classes of goalfile's light
commands, each written out as the definition of the text it compiles (see
:mod:`goalfile.dataclasscode`). Written by ``python -m goalfile.dataclasscode``: do not
edit."""

# mypy: ignore-errors

PYTHON = (3, 11)
CODE = {}

def __create_fn__(_type_iterations, _type_tokens, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_iterations, _dflt_tokens, _return_type):
 def __init__(self,*,iterations:_type_iterations=_dflt_iterations,tokens:_type_tokens=_dflt_tokens)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'iterations',iterations)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
 return __init__
CODE["def __create_fn__(_type_iterations, _type_tokens, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_iterations, _dflt_tokens, _return_type):\n def __init__(self,*,iterations:_type_iterations=_dflt_iterations,tokens:_type_tokens=_dflt_tokens)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'iterations',iterations)\n  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.iterations,self.tokens,)==(other.iterations,other.tokens,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.iterations,self.tokens,)==(other.iterations,other.tokens,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('iterations','tokens',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'iterations\',\'tokens\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('iterations','tokens',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'iterations\',\'tokens\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.iterations,self.tokens,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.iterations,self.tokens,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_id, _type_criterion, _type_check, _type_expected, _type_kind, _type_kind_text, _type_timeout, _type_timeout_text, _type_line, _type_check_is_code, _type_cells, _type_source_check, _type_source_expected, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_kind, _dflt_kind_text, _dflt_timeout, _dflt_timeout_text, _dflt_line, _dflt_check_is_code, _dflt_cells, _dflt_source_check, _dflt_source_expected, _return_type):
 def __init__(self,*,id:_type_id,criterion:_type_criterion,check:_type_check,expected:_type_expected,kind:_type_kind=_dflt_kind,kind_text:_type_kind_text=_dflt_kind_text,timeout:_type_timeout=_dflt_timeout,timeout_text:_type_timeout_text=_dflt_timeout_text,line:_type_line=_dflt_line,check_is_code:_type_check_is_code=_dflt_check_is_code,cells:_type_cells=_dflt_cells,source_check:_type_source_check=_dflt_source_check,source_expected:_type_source_expected=_dflt_source_expected)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'id',id)
  __dataclass_builtins_object__.__setattr__(self,'criterion',criterion)
  __dataclass_builtins_object__.__setattr__(self,'check',check)
  __dataclass_builtins_object__.__setattr__(self,'expected',expected)
  __dataclass_builtins_object__.__setattr__(self,'kind',kind)
  __dataclass_builtins_object__.__setattr__(self,'kind_text',kind_text)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
  __dataclass_builtins_object__.__setattr__(self,'timeout_text',timeout_text)
  __dataclass_builtins_object__.__setattr__(self,'line',line)
  __dataclass_builtins_object__.__setattr__(self,'check_is_code',check_is_code)
  __dataclass_builtins_object__.__setattr__(self,'cells',cells)
  __dataclass_builtins_object__.__setattr__(self,'source_check',source_check)
  __dataclass_builtins_object__.__setattr__(self,'source_expected',source_expected)
 return __init__
CODE["def __create_fn__(_type_id, _type_criterion, _type_check, _type_expected, _type_kind, _type_kind_text, _type_timeout, _type_timeout_text, _type_line, _type_check_is_code, _type_cells, _type_source_check, _type_source_expected, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_kind, _dflt_kind_text, _dflt_timeout, _dflt_timeout_text, _dflt_line, _dflt_check_is_code, _dflt_cells, _dflt_source_check, _dflt_source_expected, _return_type):\n def __init__(self,*,id:_type_id,criterion:_type_criterion,check:_type_check,expected:_type_expected,kind:_type_kind=_dflt_kind,kind_text:_type_kind_text=_dflt_kind_text,timeout:_type_timeout=_dflt_timeout,timeout_text:_type_timeout_text=_dflt_timeout_text,line:_type_line=_dflt_line,check_is_code:_type_check_is_code=_dflt_check_is_code,cells:_type_cells=_dflt_cells,source_check:_type_source_check=_dflt_source_check,source_expected:_type_source_expected=_dflt_source_expected)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'id',id)\n  __dataclass_builtins_object__.__setattr__(self,'criterion',criterion)\n  __dataclass_builtins_object__.__setattr__(self,'check',check)\n  __dataclass_builtins_object__.__setattr__(self,'expected',expected)\n  __dataclass_builtins_object__.__setattr__(self,'kind',kind)\n  __dataclass_builtins_object__.__setattr__(self,'kind_text',kind_text)\n  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)\n  __dataclass_builtins_object__.__setattr__(self,'timeout_text',timeout_text)\n  __dataclass_builtins_object__.__setattr__(self,'line',line)\n  __dataclass_builtins_object__.__setattr__(self,'check_is_code',check_is_code)\n  __dataclass_builtins_object__.__setattr__(self,'cells',cells)\n  __dataclass_builtins_object__.__setattr__(self,'source_check',source_check)\n  __dataclass_builtins_object__.__setattr__(self,'source_expected',source_expected)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.criterion,self.check,self.expected,self.kind,self.kind_text,self.timeout,self.timeout_text,self.line,self.check_is_code,self.cells,self.source_check,self.source_expected,)==(other.id,other.criterion,other.check,other.expected,other.kind,other.kind_text,other.timeout,other.timeout_text,other.line,other.check_is_code,other.cells,other.source_check,other.source_expected,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.id,self.criterion,self.check,self.expected,self.kind,self.kind_text,self.timeout,self.timeout_text,self.line,self.check_is_code,self.cells,self.source_check,self.source_expected,)==(other.id,other.criterion,other.check,other.expected,other.kind,other.kind_text,other.timeout,other.timeout_text,other.line,other.check_is_code,other.cells,other.source_check,other.source_expected,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('id','criterion','check','expected','kind','kind_text','timeout','timeout_text','line','check_is_code','cells','source_check','source_expected',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'id\',\'criterion\',\'check\',\'expected\',\'kind\',\'kind_text\',\'timeout\',\'timeout_text\',\'line\',\'check_is_code\',\'cells\',\'source_check\',\'source_expected\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('id','criterion','check','expected','kind','kind_text','timeout','timeout_text','line','check_is_code','cells','source_check','source_expected',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'id\',\'criterion\',\'check\',\'expected\',\'kind\',\'kind_text\',\'timeout\',\'timeout_text\',\'line\',\'check_is_code\',\'cells\',\'source_check\',\'source_expected\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.id,self.criterion,self.check,self.expected,self.kind,self.kind_text,self.timeout,self.timeout_text,self.line,self.check_is_code,self.cells,self.source_check,self.source_expected,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.id,self.criterion,self.check,self.expected,self.kind,self.kind_text,self.timeout,self.timeout_text,self.line,self.check_is_code,self.cells,self.source_check,self.source_expected,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_title, _type_key, _type_line, _type_end, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,title:_type_title,key:_type_key,line:_type_line,end:_type_end)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'title',title)
  __dataclass_builtins_object__.__setattr__(self,'key',key)
  __dataclass_builtins_object__.__setattr__(self,'line',line)
  __dataclass_builtins_object__.__setattr__(self,'end',end)
 return __init__
CODE["def __create_fn__(_type_title, _type_key, _type_line, _type_end, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,title:_type_title,key:_type_key,line:_type_line,end:_type_end)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'title',title)\n  __dataclass_builtins_object__.__setattr__(self,'key',key)\n  __dataclass_builtins_object__.__setattr__(self,'line',line)\n  __dataclass_builtins_object__.__setattr__(self,'end',end)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.title,self.key,self.line,self.end,)==(other.title,other.key,other.line,other.end,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.title,self.key,self.line,self.end,)==(other.title,other.key,other.line,other.end,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('title','key','line','end',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'title\',\'key\',\'line\',\'end\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('title','key','line','end',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'title\',\'key\',\'line\',\'end\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.title,self.key,self.line,self.end,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.title,self.key,self.line,self.end,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_path, _type_text, _type_meta, _type_slug, _type_status, _type_budget, _type_iterations_used, _type_tokens_used, _type_end_state, _type_non_goals, _type_criteria, _type_sections, _type_frontmatter_end, _type_timeout, _type_source_non_goals, _type_tokens_measured, _type_shell, _type_cwd, _type_newline, _type_key_lines, _type_problems, _type_link_labels, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_timeout, _dflt_source_non_goals, _dflt_tokens_measured, _dflt_shell, _dflt_cwd, _dflt_newline, _dflt_key_lines, _dflt_problems, _dflt_link_labels, _return_type):
 def __init__(self,*,path:_type_path,text:_type_text,meta:_type_meta,slug:_type_slug,status:_type_status,budget:_type_budget,iterations_used:_type_iterations_used,tokens_used:_type_tokens_used,end_state:_type_end_state,non_goals:_type_non_goals,criteria:_type_criteria,sections:_type_sections,frontmatter_end:_type_frontmatter_end,timeout:_type_timeout=_dflt_timeout,source_non_goals:_type_source_non_goals=_dflt_source_non_goals,tokens_measured:_type_tokens_measured=_dflt_tokens_measured,shell:_type_shell=_dflt_shell,cwd:_type_cwd=_dflt_cwd,newline:_type_newline=_dflt_newline,key_lines:_type_key_lines=_dflt_key_lines,problems:_type_problems=_dflt_problems,link_labels:_type_link_labels=_dflt_link_labels)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'text',text)
  __dataclass_builtins_object__.__setattr__(self,'meta',meta)
  __dataclass_builtins_object__.__setattr__(self,'slug',slug)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'budget',budget)
  __dataclass_builtins_object__.__setattr__(self,'iterations_used',iterations_used)
  __dataclass_builtins_object__.__setattr__(self,'tokens_used',tokens_used)
  __dataclass_builtins_object__.__setattr__(self,'end_state',end_state)
  __dataclass_builtins_object__.__setattr__(self,'non_goals',non_goals)
  __dataclass_builtins_object__.__setattr__(self,'criteria',criteria)
  __dataclass_builtins_object__.__setattr__(self,'sections',sections)
  __dataclass_builtins_object__.__setattr__(self,'frontmatter_end',frontmatter_end)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
  __dataclass_builtins_object__.__setattr__(self,'source_non_goals',source_non_goals)
  __dataclass_builtins_object__.__setattr__(self,'tokens_measured',tokens_measured)
  __dataclass_builtins_object__.__setattr__(self,'shell',shell)
  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)
  __dataclass_builtins_object__.__setattr__(self,'newline',newline)
  __dataclass_builtins_object__.__setattr__(self,'key_lines',key_lines)
  __dataclass_builtins_object__.__setattr__(self,'problems',problems)
  __dataclass_builtins_object__.__setattr__(self,'link_labels',link_labels)
 return __init__
CODE["def __create_fn__(_type_path, _type_text, _type_meta, _type_slug, _type_status, _type_budget, _type_iterations_used, _type_tokens_used, _type_end_state, _type_non_goals, _type_criteria, _type_sections, _type_frontmatter_end, _type_timeout, _type_source_non_goals, _type_tokens_measured, _type_shell, _type_cwd, _type_newline, _type_key_lines, _type_problems, _type_link_labels, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_timeout, _dflt_source_non_goals, _dflt_tokens_measured, _dflt_shell, _dflt_cwd, _dflt_newline, _dflt_key_lines, _dflt_problems, _dflt_link_labels, _return_type):\n def __init__(self,*,path:_type_path,text:_type_text,meta:_type_meta,slug:_type_slug,status:_type_status,budget:_type_budget,iterations_used:_type_iterations_used,tokens_used:_type_tokens_used,end_state:_type_end_state,non_goals:_type_non_goals,criteria:_type_criteria,sections:_type_sections,frontmatter_end:_type_frontmatter_end,timeout:_type_timeout=_dflt_timeout,source_non_goals:_type_source_non_goals=_dflt_source_non_goals,tokens_measured:_type_tokens_measured=_dflt_tokens_measured,shell:_type_shell=_dflt_shell,cwd:_type_cwd=_dflt_cwd,newline:_type_newline=_dflt_newline,key_lines:_type_key_lines=_dflt_key_lines,problems:_type_problems=_dflt_problems,link_labels:_type_link_labels=_dflt_link_labels)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'path',path)\n  __dataclass_builtins_object__.__setattr__(self,'text',text)\n  __dataclass_builtins_object__.__setattr__(self,'meta',meta)\n  __dataclass_builtins_object__.__setattr__(self,'slug',slug)\n  __dataclass_builtins_object__.__setattr__(self,'status',status)\n  __dataclass_builtins_object__.__setattr__(self,'budget',budget)\n  __dataclass_builtins_object__.__setattr__(self,'iterations_used',iterations_used)\n  __dataclass_builtins_object__.__setattr__(self,'tokens_used',tokens_used)\n  __dataclass_builtins_object__.__setattr__(self,'end_state',end_state)\n  __dataclass_builtins_object__.__setattr__(self,'non_goals',non_goals)\n  __dataclass_builtins_object__.__setattr__(self,'criteria',criteria)\n  __dataclass_builtins_object__.__setattr__(self,'sections',sections)\n  __dataclass_builtins_object__.__setattr__(self,'frontmatter_end',frontmatter_end)\n  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)\n  __dataclass_builtins_object__.__setattr__(self,'source_non_goals',source_non_goals)\n  __dataclass_builtins_object__.__setattr__(self,'tokens_measured',tokens_measured)\n  __dataclass_builtins_object__.__setattr__(self,'shell',shell)\n  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)\n  __dataclass_builtins_object__.__setattr__(self,'newline',newline)\n  __dataclass_builtins_object__.__setattr__(self,'key_lines',key_lines)\n  __dataclass_builtins_object__.__setattr__(self,'problems',problems)\n  __dataclass_builtins_object__.__setattr__(self,'link_labels',link_labels)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.text,self.meta,self.slug,self.status,self.budget,self.iterations_used,self.tokens_used,self.end_state,self.non_goals,self.criteria,self.sections,self.frontmatter_end,self.timeout,self.source_non_goals,self.tokens_measured,self.shell,self.cwd,self.newline,self.key_lines,self.problems,self.link_labels,)==(other.path,other.text,other.meta,other.slug,other.status,other.budget,other.iterations_used,other.tokens_used,other.end_state,other.non_goals,other.criteria,other.sections,other.frontmatter_end,other.timeout,other.source_non_goals,other.tokens_measured,other.shell,other.cwd,other.newline,other.key_lines,other.problems,other.link_labels,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.path,self.text,self.meta,self.slug,self.status,self.budget,self.iterations_used,self.tokens_used,self.end_state,self.non_goals,self.criteria,self.sections,self.frontmatter_end,self.timeout,self.source_non_goals,self.tokens_measured,self.shell,self.cwd,self.newline,self.key_lines,self.problems,self.link_labels,)==(other.path,other.text,other.meta,other.slug,other.status,other.budget,other.iterations_used,other.tokens_used,other.end_state,other.non_goals,other.criteria,other.sections,other.frontmatter_end,other.timeout,other.source_non_goals,other.tokens_measured,other.shell,other.cwd,other.newline,other.key_lines,other.problems,other.link_labels,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','text','meta','slug','status','budget','iterations_used','tokens_used','end_state','non_goals','criteria','sections','frontmatter_end','timeout','source_non_goals','tokens_measured','shell','cwd','newline','key_lines','problems','link_labels',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'path\',\'text\',\'meta\',\'slug\',\'status\',\'budget\',\'iterations_used\',\'tokens_used\',\'end_state\',\'non_goals\',\'criteria\',\'sections\',\'frontmatter_end\',\'timeout\',\'source_non_goals\',\'tokens_measured\',\'shell\',\'cwd\',\'newline\',\'key_lines\',\'problems\',\'link_labels\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','text','meta','slug','status','budget','iterations_used','tokens_used','end_state','non_goals','criteria','sections','frontmatter_end','timeout','source_non_goals','tokens_measured','shell','cwd','newline','key_lines','problems','link_labels',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'path\',\'text\',\'meta\',\'slug\',\'status\',\'budget\',\'iterations_used\',\'tokens_used\',\'end_state\',\'non_goals\',\'criteria\',\'sections\',\'frontmatter_end\',\'timeout\',\'source_non_goals\',\'tokens_measured\',\'shell\',\'cwd\',\'newline\',\'key_lines\',\'problems\',\'link_labels\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.path,self.text,self.meta,self.slug,self.status,self.budget,self.iterations_used,self.tokens_used,self.end_state,self.non_goals,self.criteria,self.sections,self.frontmatter_end,self.timeout,self.source_non_goals,self.tokens_measured,self.shell,self.cwd,self.newline,self.key_lines,self.problems,self.link_labels,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.path,self.text,self.meta,self.slug,self.status,self.budget,self.iterations_used,self.tokens_used,self.end_state,self.non_goals,self.criteria,self.sections,self.frontmatter_end,self.timeout,self.source_non_goals,self.tokens_measured,self.shell,self.cwd,self.newline,self.key_lines,self.problems,self.link_labels,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_id, _type_verdict, _type_command, _type_exit, _type_evidence, _type_evidence_quoted, _type_evidence_label, _type_excerpt, _type_excerpt_label, _type_elapsed, _type_why, _type_cut_short, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_evidence_quoted, _dflt_evidence_label, _dflt_excerpt, _dflt_excerpt_label, _dflt_elapsed, _dflt_why, _dflt_cut_short, _return_type):
 def __init__(self,*,id:_type_id,verdict:_type_verdict,command:_type_command,exit:_type_exit,evidence:_type_evidence,evidence_quoted:_type_evidence_quoted=_dflt_evidence_quoted,evidence_label:_type_evidence_label=_dflt_evidence_label,excerpt:_type_excerpt=_dflt_excerpt,excerpt_label:_type_excerpt_label=_dflt_excerpt_label,elapsed:_type_elapsed=_dflt_elapsed,why:_type_why=_dflt_why,cut_short:_type_cut_short=_dflt_cut_short)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'id',id)
  __dataclass_builtins_object__.__setattr__(self,'verdict',verdict)
  __dataclass_builtins_object__.__setattr__(self,'command',command)
  __dataclass_builtins_object__.__setattr__(self,'exit',exit)
  __dataclass_builtins_object__.__setattr__(self,'evidence',evidence)
  __dataclass_builtins_object__.__setattr__(self,'evidence_quoted',evidence_quoted)
  __dataclass_builtins_object__.__setattr__(self,'evidence_label',evidence_label)
  __dataclass_builtins_object__.__setattr__(self,'excerpt',excerpt)
  __dataclass_builtins_object__.__setattr__(self,'excerpt_label',excerpt_label)
  __dataclass_builtins_object__.__setattr__(self,'elapsed',elapsed)
  __dataclass_builtins_object__.__setattr__(self,'why',why)
  __dataclass_builtins_object__.__setattr__(self,'cut_short',cut_short)
 return __init__
CODE["def __create_fn__(_type_id, _type_verdict, _type_command, _type_exit, _type_evidence, _type_evidence_quoted, _type_evidence_label, _type_excerpt, _type_excerpt_label, _type_elapsed, _type_why, _type_cut_short, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_evidence_quoted, _dflt_evidence_label, _dflt_excerpt, _dflt_excerpt_label, _dflt_elapsed, _dflt_why, _dflt_cut_short, _return_type):\n def __init__(self,*,id:_type_id,verdict:_type_verdict,command:_type_command,exit:_type_exit,evidence:_type_evidence,evidence_quoted:_type_evidence_quoted=_dflt_evidence_quoted,evidence_label:_type_evidence_label=_dflt_evidence_label,excerpt:_type_excerpt=_dflt_excerpt,excerpt_label:_type_excerpt_label=_dflt_excerpt_label,elapsed:_type_elapsed=_dflt_elapsed,why:_type_why=_dflt_why,cut_short:_type_cut_short=_dflt_cut_short)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'id',id)\n  __dataclass_builtins_object__.__setattr__(self,'verdict',verdict)\n  __dataclass_builtins_object__.__setattr__(self,'command',command)\n  __dataclass_builtins_object__.__setattr__(self,'exit',exit)\n  __dataclass_builtins_object__.__setattr__(self,'evidence',evidence)\n  __dataclass_builtins_object__.__setattr__(self,'evidence_quoted',evidence_quoted)\n  __dataclass_builtins_object__.__setattr__(self,'evidence_label',evidence_label)\n  __dataclass_builtins_object__.__setattr__(self,'excerpt',excerpt)\n  __dataclass_builtins_object__.__setattr__(self,'excerpt_label',excerpt_label)\n  __dataclass_builtins_object__.__setattr__(self,'elapsed',elapsed)\n  __dataclass_builtins_object__.__setattr__(self,'why',why)\n  __dataclass_builtins_object__.__setattr__(self,'cut_short',cut_short)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.verdict,self.command,self.exit,self.evidence,self.evidence_quoted,self.evidence_label,self.excerpt,self.excerpt_label,self.elapsed,self.why,self.cut_short,)==(other.id,other.verdict,other.command,other.exit,other.evidence,other.evidence_quoted,other.evidence_label,other.excerpt,other.excerpt_label,other.elapsed,other.why,other.cut_short,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.id,self.verdict,self.command,self.exit,self.evidence,self.evidence_quoted,self.evidence_label,self.excerpt,self.excerpt_label,self.elapsed,self.why,self.cut_short,)==(other.id,other.verdict,other.command,other.exit,other.evidence,other.evidence_quoted,other.evidence_label,other.excerpt,other.excerpt_label,other.elapsed,other.why,other.cut_short,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('id','verdict','command','exit','evidence','evidence_quoted','evidence_label','excerpt','excerpt_label','elapsed','why','cut_short',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'id\',\'verdict\',\'command\',\'exit\',\'evidence\',\'evidence_quoted\',\'evidence_label\',\'excerpt\',\'excerpt_label\',\'elapsed\',\'why\',\'cut_short\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('id','verdict','command','exit','evidence','evidence_quoted','evidence_label','excerpt','excerpt_label','elapsed','why','cut_short',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'id\',\'verdict\',\'command\',\'exit\',\'evidence\',\'evidence_quoted\',\'evidence_label\',\'excerpt\',\'excerpt_label\',\'elapsed\',\'why\',\'cut_short\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.id,self.verdict,self.command,self.exit,self.evidence,self.evidence_quoted,self.evidence_label,self.excerpt,self.excerpt_label,self.elapsed,self.why,self.cut_short,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.id,self.verdict,self.command,self.exit,self.evidence,self.evidence_quoted,self.evidence_label,self.excerpt,self.excerpt_label,self.elapsed,self.why,self.cut_short,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_iteration, _type_date, _type_by, _type_time, _type_rows, _type_status, _type_status_reason, _type_contract, _type_notes, _type_line, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_time, _dflt_rows, _dflt_status, _dflt_status_reason, _dflt_contract, _dflt_notes, _dflt_line, _return_type):
 def __init__(self,*,iteration:_type_iteration,date:_type_date,by:_type_by,time:_type_time=_dflt_time,rows:_type_rows=_dflt_rows,status:_type_status=_dflt_status,status_reason:_type_status_reason=_dflt_status_reason,contract:_type_contract=_dflt_contract,notes:_type_notes=_dflt_notes,line:_type_line=_dflt_line)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'iteration',iteration)
  __dataclass_builtins_object__.__setattr__(self,'date',date)
  __dataclass_builtins_object__.__setattr__(self,'by',by)
  __dataclass_builtins_object__.__setattr__(self,'time',time)
  __dataclass_builtins_object__.__setattr__(self,'rows',rows)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'status_reason',status_reason)
  __dataclass_builtins_object__.__setattr__(self,'contract',contract)
  __dataclass_builtins_object__.__setattr__(self,'notes',notes)
  __dataclass_builtins_object__.__setattr__(self,'line',line)
 return __init__
CODE["def __create_fn__(_type_iteration, _type_date, _type_by, _type_time, _type_rows, _type_status, _type_status_reason, _type_contract, _type_notes, _type_line, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_time, _dflt_rows, _dflt_status, _dflt_status_reason, _dflt_contract, _dflt_notes, _dflt_line, _return_type):\n def __init__(self,*,iteration:_type_iteration,date:_type_date,by:_type_by,time:_type_time=_dflt_time,rows:_type_rows=_dflt_rows,status:_type_status=_dflt_status,status_reason:_type_status_reason=_dflt_status_reason,contract:_type_contract=_dflt_contract,notes:_type_notes=_dflt_notes,line:_type_line=_dflt_line)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'iteration',iteration)\n  __dataclass_builtins_object__.__setattr__(self,'date',date)\n  __dataclass_builtins_object__.__setattr__(self,'by',by)\n  __dataclass_builtins_object__.__setattr__(self,'time',time)\n  __dataclass_builtins_object__.__setattr__(self,'rows',rows)\n  __dataclass_builtins_object__.__setattr__(self,'status',status)\n  __dataclass_builtins_object__.__setattr__(self,'status_reason',status_reason)\n  __dataclass_builtins_object__.__setattr__(self,'contract',contract)\n  __dataclass_builtins_object__.__setattr__(self,'notes',notes)\n  __dataclass_builtins_object__.__setattr__(self,'line',line)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.iteration,self.date,self.by,self.time,self.rows,self.status,self.status_reason,self.contract,self.notes,self.line,)==(other.iteration,other.date,other.by,other.time,other.rows,other.status,other.status_reason,other.contract,other.notes,other.line,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.iteration,self.date,self.by,self.time,self.rows,self.status,self.status_reason,self.contract,self.notes,self.line,)==(other.iteration,other.date,other.by,other.time,other.rows,other.status,other.status_reason,other.contract,other.notes,other.line,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('iteration','date','by','time','rows','status','status_reason','contract','notes','line',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'iteration\',\'date\',\'by\',\'time\',\'rows\',\'status\',\'status_reason\',\'contract\',\'notes\',\'line\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('iteration','date','by','time','rows','status','status_reason','contract','notes','line',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'iteration\',\'date\',\'by\',\'time\',\'rows\',\'status\',\'status_reason\',\'contract\',\'notes\',\'line\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.iteration,self.date,self.by,self.time,self.rows,self.status,self.status_reason,self.contract,self.notes,self.line,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.iteration,self.date,self.by,self.time,self.rows,self.status,self.status_reason,self.contract,self.notes,self.line,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_severity, _type_message, _type_line, _type_column, _type_hint, _type_code, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_line, _dflt_column, _dflt_hint, _dflt_code, _return_type):
 def __init__(self,*,severity:_type_severity,message:_type_message,line:_type_line=_dflt_line,column:_type_column=_dflt_column,hint:_type_hint=_dflt_hint,code:_type_code=_dflt_code)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'severity',severity)
  __dataclass_builtins_object__.__setattr__(self,'message',message)
  __dataclass_builtins_object__.__setattr__(self,'line',line)
  __dataclass_builtins_object__.__setattr__(self,'column',column)
  __dataclass_builtins_object__.__setattr__(self,'hint',hint)
  __dataclass_builtins_object__.__setattr__(self,'code',code)
 return __init__
CODE["def __create_fn__(_type_severity, _type_message, _type_line, _type_column, _type_hint, _type_code, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_line, _dflt_column, _dflt_hint, _dflt_code, _return_type):\n def __init__(self,*,severity:_type_severity,message:_type_message,line:_type_line=_dflt_line,column:_type_column=_dflt_column,hint:_type_hint=_dflt_hint,code:_type_code=_dflt_code)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'severity',severity)\n  __dataclass_builtins_object__.__setattr__(self,'message',message)\n  __dataclass_builtins_object__.__setattr__(self,'line',line)\n  __dataclass_builtins_object__.__setattr__(self,'column',column)\n  __dataclass_builtins_object__.__setattr__(self,'hint',hint)\n  __dataclass_builtins_object__.__setattr__(self,'code',code)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.severity,self.message,self.line,self.column,self.hint,self.code,)==(other.severity,other.message,other.line,other.column,other.hint,other.code,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.severity,self.message,self.line,self.column,self.hint,self.code,)==(other.severity,other.message,other.line,other.column,other.hint,other.code,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('severity','message','line','column','hint','code',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'severity\',\'message\',\'line\',\'column\',\'hint\',\'code\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('severity','message','line','column','hint','code',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'severity\',\'message\',\'line\',\'column\',\'hint\',\'code\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.severity,self.message,self.line,self.column,self.hint,self.code,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.severity,self.message,self.line,self.column,self.hint,self.code,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_sections, _type_entries, _type_by_command, _type_lookalikes, _type_unfenced, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_unfenced, _return_type):
 def __init__(self,sections:_type_sections,entries:_type_entries,by_command:_type_by_command,lookalikes:_type_lookalikes,unfenced:_type_unfenced=_dflt_unfenced)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'sections',sections)
  __dataclass_builtins_object__.__setattr__(self,'entries',entries)
  __dataclass_builtins_object__.__setattr__(self,'by_command',by_command)
  __dataclass_builtins_object__.__setattr__(self,'lookalikes',lookalikes)
  __dataclass_builtins_object__.__setattr__(self,'unfenced',unfenced)
 return __init__
CODE["def __create_fn__(_type_sections, _type_entries, _type_by_command, _type_lookalikes, _type_unfenced, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_unfenced, _return_type):\n def __init__(self,sections:_type_sections,entries:_type_entries,by_command:_type_by_command,lookalikes:_type_lookalikes,unfenced:_type_unfenced=_dflt_unfenced)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'sections',sections)\n  __dataclass_builtins_object__.__setattr__(self,'entries',entries)\n  __dataclass_builtins_object__.__setattr__(self,'by_command',by_command)\n  __dataclass_builtins_object__.__setattr__(self,'lookalikes',lookalikes)\n  __dataclass_builtins_object__.__setattr__(self,'unfenced',unfenced)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('sections','entries','by_command','lookalikes','unfenced',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'sections\',\'entries\',\'by_command\',\'lookalikes\',\'unfenced\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('sections','entries','by_command','lookalikes','unfenced',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'sections\',\'entries\',\'by_command\',\'lookalikes\',\'unfenced\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_iteration, _type_date, _type_time, _type_by, _type_start, _type_end, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,iteration:_type_iteration,date:_type_date,time:_type_time,by:_type_by,start:_type_start,end:_type_end)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'iteration',iteration)
  __dataclass_builtins_object__.__setattr__(self,'date',date)
  __dataclass_builtins_object__.__setattr__(self,'time',time)
  __dataclass_builtins_object__.__setattr__(self,'by',by)
  __dataclass_builtins_object__.__setattr__(self,'start',start)
  __dataclass_builtins_object__.__setattr__(self,'end',end)
 return __init__
CODE["def __create_fn__(_type_iteration, _type_date, _type_time, _type_by, _type_start, _type_end, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,iteration:_type_iteration,date:_type_date,time:_type_time,by:_type_by,start:_type_start,end:_type_end)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'iteration',iteration)\n  __dataclass_builtins_object__.__setattr__(self,'date',date)\n  __dataclass_builtins_object__.__setattr__(self,'time',time)\n  __dataclass_builtins_object__.__setattr__(self,'by',by)\n  __dataclass_builtins_object__.__setattr__(self,'start',start)\n  __dataclass_builtins_object__.__setattr__(self,'end',end)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('iteration','date','time','by','start','end',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'iteration\',\'date\',\'time\',\'by\',\'start\',\'end\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('iteration','date','time','by','start','end',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'iteration\',\'date\',\'time\',\'by\',\'start\',\'end\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_code, _type_row, _type_line, _type_why, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,code:_type_code,row:_type_row,line:_type_line,why:_type_why)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'code',code)
  __dataclass_builtins_object__.__setattr__(self,'row',row)
  __dataclass_builtins_object__.__setattr__(self,'line',line)
  __dataclass_builtins_object__.__setattr__(self,'why',why)
 return __init__
CODE["def __create_fn__(_type_code, _type_row, _type_line, _type_why, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,code:_type_code,row:_type_row,line:_type_line,why:_type_why)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'code',code)\n  __dataclass_builtins_object__.__setattr__(self,'row',row)\n  __dataclass_builtins_object__.__setattr__(self,'line',line)\n  __dataclass_builtins_object__.__setattr__(self,'why',why)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(code={self.code!r}, row={self.row!r}, line={self.line!r}, why={self.why!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(code={self.code!r}, row={self.row!r}, line={self.line!r}, why={self.why!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.code,self.row,self.line,self.why,)==(other.code,other.row,other.line,other.why,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.code,self.row,self.line,self.why,)==(other.code,other.row,other.line,other.why,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('code','row','line','why',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'code\',\'row\',\'line\',\'why\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('code','row','line','why',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'code\',\'row\',\'line\',\'why\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.code,self.row,self.line,self.why,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.code,self.row,self.line,self.why,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_key, _type_value, _type_entry, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,key:_type_key,value:_type_value,entry:_type_entry)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'key',key)
  __dataclass_builtins_object__.__setattr__(self,'value',value)
  __dataclass_builtins_object__.__setattr__(self,'entry',entry)
 return __init__
CODE["def __create_fn__(_type_key, _type_value, _type_entry, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,key:_type_key,value:_type_value,entry:_type_entry)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'key',key)\n  __dataclass_builtins_object__.__setattr__(self,'value',value)\n  __dataclass_builtins_object__.__setattr__(self,'entry',entry)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('key','value','entry',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'key\',\'value\',\'entry\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('key','value','entry',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'key\',\'value\',\'entry\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_op, _type_value, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_value, _return_type):
 def __init__(self,*,op:_type_op,value:_type_value=_dflt_value)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'op',op)
  __dataclass_builtins_object__.__setattr__(self,'value',value)
 return __init__
CODE["def __create_fn__(_type_op, _type_value, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_value, _return_type):\n def __init__(self,*,op:_type_op,value:_type_value=_dflt_value)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'op',op)\n  __dataclass_builtins_object__.__setattr__(self,'value',value)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.op,self.value,)==(other.op,other.value,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.op,self.value,)==(other.op,other.value,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('op','value',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'op\',\'value\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('op','value',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'op\',\'value\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.op,self.value,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.op,self.value,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_clauses, _type_rewrites, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_rewrites, _return_type):
 def __init__(self,clauses:_type_clauses,rewrites:_type_rewrites=_dflt_rewrites)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'clauses',clauses)
  __dataclass_builtins_object__.__setattr__(self,'rewrites',rewrites)
 return __init__
CODE["def __create_fn__(_type_clauses, _type_rewrites, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_rewrites, _return_type):\n def __init__(self,clauses:_type_clauses,rewrites:_type_rewrites=_dflt_rewrites)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'clauses',clauses)\n  __dataclass_builtins_object__.__setattr__(self,'rewrites',rewrites)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.clauses,)==(other.clauses,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.clauses,)==(other.clauses,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('clauses','rewrites',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'clauses\',\'rewrites\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('clauses','rewrites',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'clauses\',\'rewrites\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.clauses,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.clauses,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_holds, _type_failures, _type_evidence, _type_error, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_error, _return_type):
 def __init__(self,*,holds:_type_holds,failures:_type_failures,evidence:_type_evidence,error:_type_error=_dflt_error)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'holds',holds)
  __dataclass_builtins_object__.__setattr__(self,'failures',failures)
  __dataclass_builtins_object__.__setattr__(self,'evidence',evidence)
  __dataclass_builtins_object__.__setattr__(self,'error',error)
 return __init__
CODE["def __create_fn__(_type_holds, _type_failures, _type_evidence, _type_error, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_error, _return_type):\n def __init__(self,*,holds:_type_holds,failures:_type_failures,evidence:_type_evidence,error:_type_error=_dflt_error)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'holds',holds)\n  __dataclass_builtins_object__.__setattr__(self,'failures',failures)\n  __dataclass_builtins_object__.__setattr__(self,'evidence',evidence)\n  __dataclass_builtins_object__.__setattr__(self,'error',error)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.holds,self.failures,self.evidence,self.error,)==(other.holds,other.failures,other.evidence,other.error,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.holds,self.failures,self.evidence,self.error,)==(other.holds,other.failures,other.evidence,other.error,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('holds','failures','evidence','error',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'holds\',\'failures\',\'evidence\',\'error\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('holds','failures','evidence','error',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'holds\',\'failures\',\'evidence\',\'error\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.holds,self.failures,self.evidence,self.error,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.holds,self.failures,self.evidence,self.error,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_id, _type_check, _type_expected, _type_kind, _type_timeout, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,id:_type_id,check:_type_check,expected:_type_expected,kind:_type_kind,timeout:_type_timeout)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'id',id)
  __dataclass_builtins_object__.__setattr__(self,'check',check)
  __dataclass_builtins_object__.__setattr__(self,'expected',expected)
  __dataclass_builtins_object__.__setattr__(self,'kind',kind)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
 return __init__
CODE["def __create_fn__(_type_id, _type_check, _type_expected, _type_kind, _type_timeout, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,id:_type_id,check:_type_check,expected:_type_expected,kind:_type_kind,timeout:_type_timeout)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'id',id)\n  __dataclass_builtins_object__.__setattr__(self,'check',check)\n  __dataclass_builtins_object__.__setattr__(self,'expected',expected)\n  __dataclass_builtins_object__.__setattr__(self,'kind',kind)\n  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.check,self.expected,self.kind,self.timeout,)==(other.id,other.check,other.expected,other.kind,other.timeout,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.id,self.check,self.expected,self.kind,self.timeout,)==(other.id,other.check,other.expected,other.kind,other.timeout,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__():
 def __lt__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.check,self.expected,self.kind,self.timeout,)<(other.id,other.check,other.expected,other.kind,other.timeout,)
  return NotImplemented
 return __lt__
CODE['def __create_fn__():\n def __lt__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.id,self.check,self.expected,self.kind,self.timeout,)<(other.id,other.check,other.expected,other.kind,other.timeout,)\n  return NotImplemented\n return __lt__'] = __create_fn__.__code__

def __create_fn__():
 def __le__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.check,self.expected,self.kind,self.timeout,)<=(other.id,other.check,other.expected,other.kind,other.timeout,)
  return NotImplemented
 return __le__
CODE['def __create_fn__():\n def __le__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.id,self.check,self.expected,self.kind,self.timeout,)<=(other.id,other.check,other.expected,other.kind,other.timeout,)\n  return NotImplemented\n return __le__'] = __create_fn__.__code__

def __create_fn__():
 def __gt__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.check,self.expected,self.kind,self.timeout,)>(other.id,other.check,other.expected,other.kind,other.timeout,)
  return NotImplemented
 return __gt__
CODE['def __create_fn__():\n def __gt__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.id,self.check,self.expected,self.kind,self.timeout,)>(other.id,other.check,other.expected,other.kind,other.timeout,)\n  return NotImplemented\n return __gt__'] = __create_fn__.__code__

def __create_fn__():
 def __ge__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.check,self.expected,self.kind,self.timeout,)>=(other.id,other.check,other.expected,other.kind,other.timeout,)
  return NotImplemented
 return __ge__
CODE['def __create_fn__():\n def __ge__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.id,self.check,self.expected,self.kind,self.timeout,)>=(other.id,other.check,other.expected,other.kind,other.timeout,)\n  return NotImplemented\n return __ge__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('id','check','expected','kind','timeout',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'id\',\'check\',\'expected\',\'kind\',\'timeout\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('id','check','expected','kind','timeout',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'id\',\'check\',\'expected\',\'kind\',\'timeout\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.id,self.check,self.expected,self.kind,self.timeout,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.id,self.check,self.expected,self.kind,self.timeout,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_rows, _type_non_goals, _type_settings, _type_order, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_settings, _dflt_order, _return_type):
 def __init__(self,*,rows:_type_rows,non_goals:_type_non_goals,settings:_type_settings=_dflt_settings,order:_type_order=_dflt_order)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'rows',rows)
  __dataclass_builtins_object__.__setattr__(self,'non_goals',non_goals)
  __dataclass_builtins_object__.__setattr__(self,'settings',settings)
  __dataclass_builtins_object__.__setattr__(self,'order',order)
 return __init__
CODE["def __create_fn__(_type_rows, _type_non_goals, _type_settings, _type_order, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_settings, _dflt_order, _return_type):\n def __init__(self,*,rows:_type_rows,non_goals:_type_non_goals,settings:_type_settings=_dflt_settings,order:_type_order=_dflt_order)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'rows',rows)\n  __dataclass_builtins_object__.__setattr__(self,'non_goals',non_goals)\n  __dataclass_builtins_object__.__setattr__(self,'settings',settings)\n  __dataclass_builtins_object__.__setattr__(self,'order',order)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.rows,self.non_goals,self.settings,)==(other.rows,other.non_goals,other.settings,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.rows,self.non_goals,self.settings,)==(other.rows,other.non_goals,other.settings,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('rows','non_goals','settings','order',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'rows\',\'non_goals\',\'settings\',\'order\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('rows','non_goals','settings','order',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'rows\',\'non_goals\',\'settings\',\'order\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.rows,self.non_goals,self.settings,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.rows,self.non_goals,self.settings,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_read, _type_shown, _type_struck, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,read:_type_read,shown:_type_shown,struck:_type_struck)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'read',read)
  __dataclass_builtins_object__.__setattr__(self,'shown',shown)
  __dataclass_builtins_object__.__setattr__(self,'struck',struck)
 return __init__
CODE["def __create_fn__(_type_read, _type_shown, _type_struck, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,read:_type_read,shown:_type_shown,struck:_type_struck)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'read',read)\n  __dataclass_builtins_object__.__setattr__(self,'shown',shown)\n  __dataclass_builtins_object__.__setattr__(self,'struck',struck)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(read={self.read!r}, shown={self.shown!r}, struck={self.struck!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(read={self.read!r}, shown={self.shown!r}, struck={self.struck!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.read,self.shown,self.struck,)==(other.read,other.shown,other.struck,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.read,self.shown,self.struck,)==(other.read,other.shown,other.struck,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('read','shown','struck',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'read\',\'shown\',\'struck\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('read','shown','struck',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'read\',\'shown\',\'struck\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.read,self.shown,self.struck,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.read,self.shown,self.struck,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_first, _type_lines, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,first:_type_first,lines:_type_lines)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'first',first)
  __dataclass_builtins_object__.__setattr__(self,'lines',lines)
 return __init__
CODE["def __create_fn__(_type_first, _type_lines, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,first:_type_first,lines:_type_lines)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'first',first)\n  __dataclass_builtins_object__.__setattr__(self,'lines',lines)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('first','lines',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'first\',\'lines\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('first','lines',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'first\',\'lines\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_tail, _type_total_bytes, _type_truncated, _type_head, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_head, _return_type):
 def __init__(self,*,tail:_type_tail,total_bytes:_type_total_bytes,truncated:_type_truncated,head:_type_head=_dflt_head)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'tail',tail)
  __dataclass_builtins_object__.__setattr__(self,'total_bytes',total_bytes)
  __dataclass_builtins_object__.__setattr__(self,'truncated',truncated)
  __dataclass_builtins_object__.__setattr__(self,'head',head)
 return __init__
CODE["def __create_fn__(_type_tail, _type_total_bytes, _type_truncated, _type_head, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_head, _return_type):\n def __init__(self,*,tail:_type_tail,total_bytes:_type_total_bytes,truncated:_type_truncated,head:_type_head=_dflt_head)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'tail',tail)\n  __dataclass_builtins_object__.__setattr__(self,'total_bytes',total_bytes)\n  __dataclass_builtins_object__.__setattr__(self,'truncated',truncated)\n  __dataclass_builtins_object__.__setattr__(self,'head',head)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.tail,self.total_bytes,self.truncated,self.head,)==(other.tail,other.total_bytes,other.truncated,other.head,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.tail,self.total_bytes,self.truncated,self.head,)==(other.tail,other.total_bytes,other.truncated,other.head,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('tail','total_bytes','truncated','head',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'tail\',\'total_bytes\',\'truncated\',\'head\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('tail','total_bytes','truncated','head',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'tail\',\'total_bytes\',\'truncated\',\'head\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.tail,self.total_bytes,self.truncated,self.head,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.tail,self.total_bytes,self.truncated,self.head,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_command, _type_shell, _type_cwd, _type_env, _type_timeout, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,command:_type_command,shell:_type_shell,cwd:_type_cwd,env:_type_env,timeout:_type_timeout)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'command',command)
  __dataclass_builtins_object__.__setattr__(self,'shell',shell)
  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)
  __dataclass_builtins_object__.__setattr__(self,'env',env)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
 return __init__
CODE["def __create_fn__(_type_command, _type_shell, _type_cwd, _type_env, _type_timeout, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,command:_type_command,shell:_type_shell,cwd:_type_cwd,env:_type_env,timeout:_type_timeout)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'command',command)\n  __dataclass_builtins_object__.__setattr__(self,'shell',shell)\n  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)\n  __dataclass_builtins_object__.__setattr__(self,'env',env)\n  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('command','shell','cwd','env','timeout',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'command\',\'shell\',\'cwd\',\'env\',\'timeout\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('command','shell','cwd','env','timeout',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'command\',\'shell\',\'cwd\',\'env\',\'timeout\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_ending, _type_exit_status, _type_signal, _type_elapsed, _type_stdout, _type_stderr, _type_message, _type_goal_limit, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_goal_limit, _return_type):
 def __init__(self,*,ending:_type_ending,exit_status:_type_exit_status,signal:_type_signal,elapsed:_type_elapsed,stdout:_type_stdout,stderr:_type_stderr,message:_type_message,goal_limit:_type_goal_limit=_dflt_goal_limit)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'ending',ending)
  __dataclass_builtins_object__.__setattr__(self,'exit_status',exit_status)
  __dataclass_builtins_object__.__setattr__(self,'signal',signal)
  __dataclass_builtins_object__.__setattr__(self,'elapsed',elapsed)
  __dataclass_builtins_object__.__setattr__(self,'stdout',stdout)
  __dataclass_builtins_object__.__setattr__(self,'stderr',stderr)
  __dataclass_builtins_object__.__setattr__(self,'message',message)
  __dataclass_builtins_object__.__setattr__(self,'goal_limit',goal_limit)
 return __init__
CODE["def __create_fn__(_type_ending, _type_exit_status, _type_signal, _type_elapsed, _type_stdout, _type_stderr, _type_message, _type_goal_limit, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_goal_limit, _return_type):\n def __init__(self,*,ending:_type_ending,exit_status:_type_exit_status,signal:_type_signal,elapsed:_type_elapsed,stdout:_type_stdout,stderr:_type_stderr,message:_type_message,goal_limit:_type_goal_limit=_dflt_goal_limit)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'ending',ending)\n  __dataclass_builtins_object__.__setattr__(self,'exit_status',exit_status)\n  __dataclass_builtins_object__.__setattr__(self,'signal',signal)\n  __dataclass_builtins_object__.__setattr__(self,'elapsed',elapsed)\n  __dataclass_builtins_object__.__setattr__(self,'stdout',stdout)\n  __dataclass_builtins_object__.__setattr__(self,'stderr',stderr)\n  __dataclass_builtins_object__.__setattr__(self,'message',message)\n  __dataclass_builtins_object__.__setattr__(self,'goal_limit',goal_limit)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('ending','exit_status','signal','elapsed','stdout','stderr','message','goal_limit',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'ending\',\'exit_status\',\'signal\',\'elapsed\',\'stdout\',\'stderr\',\'message\',\'goal_limit\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('ending','exit_status','signal','elapsed','stdout','stderr','message','goal_limit',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'ending\',\'exit_status\',\'signal\',\'elapsed\',\'stdout\',\'stderr\',\'message\',\'goal_limit\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_per_command, _type_until, _type_after_hang, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,per_command:_type_per_command,until:_type_until,after_hang:_type_after_hang)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'per_command',per_command)
  __dataclass_builtins_object__.__setattr__(self,'until',until)
  __dataclass_builtins_object__.__setattr__(self,'after_hang',after_hang)
 return __init__
CODE["def __create_fn__(_type_per_command, _type_until, _type_after_hang, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,per_command:_type_per_command,until:_type_until,after_hang:_type_after_hang)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'per_command',per_command)\n  __dataclass_builtins_object__.__setattr__(self,'until',until)\n  __dataclass_builtins_object__.__setattr__(self,'after_hang',after_hang)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('per_command','until','after_hang',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'per_command\',\'until\',\'after_hang\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('per_command','until','after_hang',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'per_command\',\'until\',\'after_hang\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_goal, _type_row, _type_expected, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_goal, _dflt_row, _dflt_expected, _return_type):
 def __init__(self,goal:_type_goal=_dflt_goal,row:_type_row=_dflt_row,expected:_type_expected=_dflt_expected)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'goal',goal)
  __dataclass_builtins_object__.__setattr__(self,'row',row)
  __dataclass_builtins_object__.__setattr__(self,'expected',expected)
 return __init__
CODE["def __create_fn__(_type_goal, _type_row, _type_expected, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_goal, _dflt_row, _dflt_expected, _return_type):\n def __init__(self,goal:_type_goal=_dflt_goal,row:_type_row=_dflt_row,expected:_type_expected=_dflt_expected)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'goal',goal)\n  __dataclass_builtins_object__.__setattr__(self,'row',row)\n  __dataclass_builtins_object__.__setattr__(self,'expected',expected)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(goal={self.goal!r}, row={self.row!r}, expected={self.expected!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(goal={self.goal!r}, row={self.row!r}, expected={self.expected!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.goal,self.row,self.expected,)==(other.goal,other.row,other.expected,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.goal,self.row,self.expected,)==(other.goal,other.row,other.expected,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('goal','row','expected',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'goal\',\'row\',\'expected\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('goal','row','expected',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'goal\',\'row\',\'expected\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.goal,self.row,self.expected,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.goal,self.row,self.expected,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_today, _type_env, _type_cwd, _type_clock, _type_notify, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_clock, _dflt_notify, _return_type):
 def __init__(self,*,today:_type_today,env:_type_env,cwd:_type_cwd,clock:_type_clock=_dflt_clock,notify:_type_notify=_dflt_notify)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'today',today)
  __dataclass_builtins_object__.__setattr__(self,'env',env)
  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)
  __dataclass_builtins_object__.__setattr__(self,'clock',clock)
  __dataclass_builtins_object__.__setattr__(self,'notify',notify)
 return __init__
CODE["def __create_fn__(_type_today, _type_env, _type_cwd, _type_clock, _type_notify, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_clock, _dflt_notify, _return_type):\n def __init__(self,*,today:_type_today,env:_type_env,cwd:_type_cwd,clock:_type_clock=_dflt_clock,notify:_type_notify=_dflt_notify)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'today',today)\n  __dataclass_builtins_object__.__setattr__(self,'env',env)\n  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)\n  __dataclass_builtins_object__.__setattr__(self,'clock',clock)\n  __dataclass_builtins_object__.__setattr__(self,'notify',notify)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('today','env','cwd','clock','notify',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'today\',\'env\',\'cwd\',\'clock\',\'notify\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('today','env','cwd','clock','notify',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'today\',\'env\',\'cwd\',\'clock\',\'notify\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_stdout, _type_stderr, _type_stdout_bytes, _type_stderr_bytes, _type_truncated, _type_stdout_head, _type_stderr_head, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_stdout_head, _dflt_stderr_head, _return_type):
 def __init__(self,*,stdout:_type_stdout,stderr:_type_stderr,stdout_bytes:_type_stdout_bytes,stderr_bytes:_type_stderr_bytes,truncated:_type_truncated,stdout_head:_type_stdout_head=_dflt_stdout_head,stderr_head:_type_stderr_head=_dflt_stderr_head)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'stdout',stdout)
  __dataclass_builtins_object__.__setattr__(self,'stderr',stderr)
  __dataclass_builtins_object__.__setattr__(self,'stdout_bytes',stdout_bytes)
  __dataclass_builtins_object__.__setattr__(self,'stderr_bytes',stderr_bytes)
  __dataclass_builtins_object__.__setattr__(self,'truncated',truncated)
  __dataclass_builtins_object__.__setattr__(self,'stdout_head',stdout_head)
  __dataclass_builtins_object__.__setattr__(self,'stderr_head',stderr_head)
 return __init__
CODE["def __create_fn__(_type_stdout, _type_stderr, _type_stdout_bytes, _type_stderr_bytes, _type_truncated, _type_stdout_head, _type_stderr_head, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_stdout_head, _dflt_stderr_head, _return_type):\n def __init__(self,*,stdout:_type_stdout,stderr:_type_stderr,stdout_bytes:_type_stdout_bytes,stderr_bytes:_type_stderr_bytes,truncated:_type_truncated,stdout_head:_type_stdout_head=_dflt_stdout_head,stderr_head:_type_stderr_head=_dflt_stderr_head)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'stdout',stdout)\n  __dataclass_builtins_object__.__setattr__(self,'stderr',stderr)\n  __dataclass_builtins_object__.__setattr__(self,'stdout_bytes',stdout_bytes)\n  __dataclass_builtins_object__.__setattr__(self,'stderr_bytes',stderr_bytes)\n  __dataclass_builtins_object__.__setattr__(self,'truncated',truncated)\n  __dataclass_builtins_object__.__setattr__(self,'stdout_head',stdout_head)\n  __dataclass_builtins_object__.__setattr__(self,'stderr_head',stderr_head)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('stdout','stderr','stdout_bytes','stderr_bytes','truncated','stdout_head','stderr_head',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'stdout\',\'stderr\',\'stdout_bytes\',\'stderr_bytes\',\'truncated\',\'stdout_head\',\'stderr_head\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('stdout','stderr','stdout_bytes','stderr_bytes','truncated','stdout_head','stderr_head',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'stdout\',\'stderr\',\'stdout_bytes\',\'stderr_bytes\',\'truncated\',\'stdout_head\',\'stderr_head\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_path, _type_source, _type_relative, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,path:_type_path,source:_type_source,relative:_type_relative)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'source',source)
  __dataclass_builtins_object__.__setattr__(self,'relative',relative)
 return __init__
CODE["def __create_fn__(_type_path, _type_source, _type_relative, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,path:_type_path,source:_type_source,relative:_type_relative)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'path',path)\n  __dataclass_builtins_object__.__setattr__(self,'source',source)\n  __dataclass_builtins_object__.__setattr__(self,'relative',relative)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','source','relative',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'path\',\'source\',\'relative\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','source','relative',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'path\',\'source\',\'relative\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_path, _type_write, _type_tokens_used, _type_transcript, _type_time_limit, _type_judge, _type_judge_timeout, _type_lock_wait, _type_jobs, _type_then, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_write, _dflt_tokens_used, _dflt_transcript, _dflt_time_limit, _dflt_judge, _dflt_judge_timeout, _dflt_lock_wait, _dflt_jobs, _dflt_then, _return_type):
 def __init__(self,*,path:_type_path,write:_type_write=_dflt_write,tokens_used:_type_tokens_used=_dflt_tokens_used,transcript:_type_transcript=_dflt_transcript,time_limit:_type_time_limit=_dflt_time_limit,judge:_type_judge=_dflt_judge,judge_timeout:_type_judge_timeout=_dflt_judge_timeout,lock_wait:_type_lock_wait=_dflt_lock_wait,jobs:_type_jobs=_dflt_jobs,then:_type_then=_dflt_then)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'write',write)
  __dataclass_builtins_object__.__setattr__(self,'tokens_used',tokens_used)
  __dataclass_builtins_object__.__setattr__(self,'transcript',transcript)
  __dataclass_builtins_object__.__setattr__(self,'time_limit',time_limit)
  __dataclass_builtins_object__.__setattr__(self,'judge',judge)
  __dataclass_builtins_object__.__setattr__(self,'judge_timeout',judge_timeout)
  __dataclass_builtins_object__.__setattr__(self,'lock_wait',lock_wait)
  __dataclass_builtins_object__.__setattr__(self,'jobs',jobs)
  __dataclass_builtins_object__.__setattr__(self,'then',then)
 return __init__
CODE["def __create_fn__(_type_path, _type_write, _type_tokens_used, _type_transcript, _type_time_limit, _type_judge, _type_judge_timeout, _type_lock_wait, _type_jobs, _type_then, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_write, _dflt_tokens_used, _dflt_transcript, _dflt_time_limit, _dflt_judge, _dflt_judge_timeout, _dflt_lock_wait, _dflt_jobs, _dflt_then, _return_type):\n def __init__(self,*,path:_type_path,write:_type_write=_dflt_write,tokens_used:_type_tokens_used=_dflt_tokens_used,transcript:_type_transcript=_dflt_transcript,time_limit:_type_time_limit=_dflt_time_limit,judge:_type_judge=_dflt_judge,judge_timeout:_type_judge_timeout=_dflt_judge_timeout,lock_wait:_type_lock_wait=_dflt_lock_wait,jobs:_type_jobs=_dflt_jobs,then:_type_then=_dflt_then)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'path',path)\n  __dataclass_builtins_object__.__setattr__(self,'write',write)\n  __dataclass_builtins_object__.__setattr__(self,'tokens_used',tokens_used)\n  __dataclass_builtins_object__.__setattr__(self,'transcript',transcript)\n  __dataclass_builtins_object__.__setattr__(self,'time_limit',time_limit)\n  __dataclass_builtins_object__.__setattr__(self,'judge',judge)\n  __dataclass_builtins_object__.__setattr__(self,'judge_timeout',judge_timeout)\n  __dataclass_builtins_object__.__setattr__(self,'lock_wait',lock_wait)\n  __dataclass_builtins_object__.__setattr__(self,'jobs',jobs)\n  __dataclass_builtins_object__.__setattr__(self,'then',then)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','write','tokens_used','transcript','time_limit','judge','judge_timeout','lock_wait','jobs','then',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'path\',\'write\',\'tokens_used\',\'transcript\',\'time_limit\',\'judge\',\'judge_timeout\',\'lock_wait\',\'jobs\',\'then\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','write','tokens_used','transcript','time_limit','judge','judge_timeout','lock_wait','jobs','then',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'path\',\'write\',\'tokens_used\',\'transcript\',\'time_limit\',\'judge\',\'judge_timeout\',\'lock_wait\',\'jobs\',\'then\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_path, _type_slug, _type_iteration, _type_rows, _type_status, _type_reason, _type_summary, _type_written, _type_tokens_used, _type_tails, _type_entry_text, _type_missing_cwd, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_missing_cwd, _return_type):
 def __init__(self,*,path:_type_path,slug:_type_slug,iteration:_type_iteration,rows:_type_rows,status:_type_status,reason:_type_reason,summary:_type_summary,written:_type_written,tokens_used:_type_tokens_used,tails:_type_tails,entry_text:_type_entry_text,missing_cwd:_type_missing_cwd=_dflt_missing_cwd)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'slug',slug)
  __dataclass_builtins_object__.__setattr__(self,'iteration',iteration)
  __dataclass_builtins_object__.__setattr__(self,'rows',rows)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'summary',summary)
  __dataclass_builtins_object__.__setattr__(self,'written',written)
  __dataclass_builtins_object__.__setattr__(self,'tokens_used',tokens_used)
  __dataclass_builtins_object__.__setattr__(self,'tails',tails)
  __dataclass_builtins_object__.__setattr__(self,'entry_text',entry_text)
  __dataclass_builtins_object__.__setattr__(self,'missing_cwd',missing_cwd)
 return __init__
CODE["def __create_fn__(_type_path, _type_slug, _type_iteration, _type_rows, _type_status, _type_reason, _type_summary, _type_written, _type_tokens_used, _type_tails, _type_entry_text, _type_missing_cwd, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_missing_cwd, _return_type):\n def __init__(self,*,path:_type_path,slug:_type_slug,iteration:_type_iteration,rows:_type_rows,status:_type_status,reason:_type_reason,summary:_type_summary,written:_type_written,tokens_used:_type_tokens_used,tails:_type_tails,entry_text:_type_entry_text,missing_cwd:_type_missing_cwd=_dflt_missing_cwd)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'path',path)\n  __dataclass_builtins_object__.__setattr__(self,'slug',slug)\n  __dataclass_builtins_object__.__setattr__(self,'iteration',iteration)\n  __dataclass_builtins_object__.__setattr__(self,'rows',rows)\n  __dataclass_builtins_object__.__setattr__(self,'status',status)\n  __dataclass_builtins_object__.__setattr__(self,'reason',reason)\n  __dataclass_builtins_object__.__setattr__(self,'summary',summary)\n  __dataclass_builtins_object__.__setattr__(self,'written',written)\n  __dataclass_builtins_object__.__setattr__(self,'tokens_used',tokens_used)\n  __dataclass_builtins_object__.__setattr__(self,'tails',tails)\n  __dataclass_builtins_object__.__setattr__(self,'entry_text',entry_text)\n  __dataclass_builtins_object__.__setattr__(self,'missing_cwd',missing_cwd)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','slug','iteration','rows','status','reason','summary','written','tokens_used','tails','entry_text','missing_cwd',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'path\',\'slug\',\'iteration\',\'rows\',\'status\',\'reason\',\'summary\',\'written\',\'tokens_used\',\'tails\',\'entry_text\',\'missing_cwd\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','slug','iteration','rows','status','reason','summary','written','tokens_used','tails','entry_text','missing_cwd',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'path\',\'slug\',\'iteration\',\'rows\',\'status\',\'reason\',\'summary\',\'written\',\'tokens_used\',\'tails\',\'entry_text\',\'missing_cwd\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_rows, _type_status, _type_reason, _type_tokens, _type_tails, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,rows:_type_rows,status:_type_status,reason:_type_reason,tokens:_type_tokens,tails:_type_tails)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'rows',rows)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
  __dataclass_builtins_object__.__setattr__(self,'tails',tails)
 return __init__
CODE["def __create_fn__(_type_rows, _type_status, _type_reason, _type_tokens, _type_tails, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,rows:_type_rows,status:_type_status,reason:_type_reason,tokens:_type_tokens,tails:_type_tails)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'rows',rows)\n  __dataclass_builtins_object__.__setattr__(self,'status',status)\n  __dataclass_builtins_object__.__setattr__(self,'reason',reason)\n  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)\n  __dataclass_builtins_object__.__setattr__(self,'tails',tails)\n return __init__"] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('rows','status','reason','tokens','tails',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'rows\',\'status\',\'reason\',\'tokens\',\'tails\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('rows','status','reason','tokens','tails',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'rows\',\'status\',\'reason\',\'tokens\',\'tails\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__(_type_goal, _type_since, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,goal:_type_goal,since:_type_since)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'goal',goal)
  __dataclass_builtins_object__.__setattr__(self,'since',since)
 return __init__
CODE["def __create_fn__(_type_goal, _type_since, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,goal:_type_goal,since:_type_since)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'goal',goal)\n  __dataclass_builtins_object__.__setattr__(self,'since',since)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(goal={self.goal!r}, since={self.since!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(goal={self.goal!r}, since={self.since!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.goal,self.since,)==(other.goal,other.since,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.goal,self.since,)==(other.goal,other.since,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('goal','since',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'goal\',\'since\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('goal','since',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'goal\',\'since\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.goal,self.since,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.goal,self.since,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_root, _type_focus, _type_changed, _type_status, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_status, _return_type):
 def __init__(self,*,root:_type_root,focus:_type_focus,changed:_type_changed,status:_type_status=_dflt_status)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'root',root)
  __dataclass_builtins_object__.__setattr__(self,'focus',focus)
  __dataclass_builtins_object__.__setattr__(self,'changed',changed)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
 return __init__
CODE["def __create_fn__(_type_root, _type_focus, _type_changed, _type_status, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_status, _return_type):\n def __init__(self,*,root:_type_root,focus:_type_focus,changed:_type_changed,status:_type_status=_dflt_status)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'root',root)\n  __dataclass_builtins_object__.__setattr__(self,'focus',focus)\n  __dataclass_builtins_object__.__setattr__(self,'changed',changed)\n  __dataclass_builtins_object__.__setattr__(self,'status',status)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(root={self.root!r}, focus={self.focus!r}, changed={self.changed!r}, status={self.status!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(root={self.root!r}, focus={self.focus!r}, changed={self.changed!r}, status={self.status!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.root,self.focus,self.changed,self.status,)==(other.root,other.focus,other.changed,other.status,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.root,self.focus,self.changed,self.status,)==(other.root,other.focus,other.changed,other.status,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('root','focus','changed','status',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'root\',\'focus\',\'changed\',\'status\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('root','focus','changed','status',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'root\',\'focus\',\'changed\',\'status\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.root,self.focus,self.changed,self.status,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.root,self.focus,self.changed,self.status,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_recorded, _type_honoured, _type_why_not, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,*,recorded:_type_recorded,honoured:_type_honoured,why_not:_type_why_not)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'recorded',recorded)
  __dataclass_builtins_object__.__setattr__(self,'honoured',honoured)
  __dataclass_builtins_object__.__setattr__(self,'why_not',why_not)
 return __init__
CODE["def __create_fn__(_type_recorded, _type_honoured, _type_why_not, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):\n def __init__(self,*,recorded:_type_recorded,honoured:_type_honoured,why_not:_type_why_not)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'recorded',recorded)\n  __dataclass_builtins_object__.__setattr__(self,'honoured',honoured)\n  __dataclass_builtins_object__.__setattr__(self,'why_not',why_not)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(recorded={self.recorded!r}, honoured={self.honoured!r}, why_not={self.why_not!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(recorded={self.recorded!r}, honoured={self.honoured!r}, why_not={self.why_not!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.recorded,self.honoured,self.why_not,)==(other.recorded,other.honoured,other.why_not,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.recorded,self.honoured,self.why_not,)==(other.recorded,other.honoured,other.why_not,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('recorded','honoured','why_not',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'recorded\',\'honoured\',\'why_not\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('recorded','honoured','why_not',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'recorded\',\'honoured\',\'why_not\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.recorded,self.honoured,self.why_not,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.recorded,self.honoured,self.why_not,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_path, _type_goal, _type_last_verify, _type_error, _type_stall_count, _type_impossible, _type_workdir, _type_warnings, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_error, _dflt_stall_count, _dflt_impossible, _dflt_workdir, _dflt_warnings, _return_type):
 def __init__(self,*,path:_type_path,goal:_type_goal,last_verify:_type_last_verify,error:_type_error=_dflt_error,stall_count:_type_stall_count=_dflt_stall_count,impossible:_type_impossible=_dflt_impossible,workdir:_type_workdir=_dflt_workdir,warnings:_type_warnings=_dflt_warnings)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'goal',goal)
  __dataclass_builtins_object__.__setattr__(self,'last_verify',last_verify)
  __dataclass_builtins_object__.__setattr__(self,'error',error)
  __dataclass_builtins_object__.__setattr__(self,'stall_count',stall_count)
  __dataclass_builtins_object__.__setattr__(self,'impossible',impossible)
  __dataclass_builtins_object__.__setattr__(self,'workdir',workdir)
  __dataclass_builtins_object__.__setattr__(self,'warnings',warnings)
 return __init__
CODE["def __create_fn__(_type_path, _type_goal, _type_last_verify, _type_error, _type_stall_count, _type_impossible, _type_workdir, _type_warnings, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_error, _dflt_stall_count, _dflt_impossible, _dflt_workdir, _dflt_warnings, _return_type):\n def __init__(self,*,path:_type_path,goal:_type_goal,last_verify:_type_last_verify,error:_type_error=_dflt_error,stall_count:_type_stall_count=_dflt_stall_count,impossible:_type_impossible=_dflt_impossible,workdir:_type_workdir=_dflt_workdir,warnings:_type_warnings=_dflt_warnings)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'path',path)\n  __dataclass_builtins_object__.__setattr__(self,'goal',goal)\n  __dataclass_builtins_object__.__setattr__(self,'last_verify',last_verify)\n  __dataclass_builtins_object__.__setattr__(self,'error',error)\n  __dataclass_builtins_object__.__setattr__(self,'stall_count',stall_count)\n  __dataclass_builtins_object__.__setattr__(self,'impossible',impossible)\n  __dataclass_builtins_object__.__setattr__(self,'workdir',workdir)\n  __dataclass_builtins_object__.__setattr__(self,'warnings',warnings)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, goal={self.goal!r}, last_verify={self.last_verify!r}, error={self.error!r}, stall_count={self.stall_count!r}, impossible={self.impossible!r}, workdir={self.workdir!r}, warnings={self.warnings!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(path={self.path!r}, goal={self.goal!r}, last_verify={self.last_verify!r}, error={self.error!r}, stall_count={self.stall_count!r}, impossible={self.impossible!r}, workdir={self.workdir!r}, warnings={self.warnings!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.goal,self.last_verify,self.error,self.stall_count,self.impossible,self.workdir,self.warnings,)==(other.path,other.goal,other.last_verify,other.error,other.stall_count,other.impossible,other.workdir,other.warnings,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.path,self.goal,self.last_verify,self.error,self.stall_count,self.impossible,self.workdir,self.warnings,)==(other.path,other.goal,other.last_verify,other.error,other.stall_count,other.impossible,other.workdir,other.warnings,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','goal','last_verify','error','stall_count','impossible','workdir','warnings',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'path\',\'goal\',\'last_verify\',\'error\',\'stall_count\',\'impossible\',\'workdir\',\'warnings\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','goal','last_verify','error','stall_count','impossible','workdir','warnings',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'path\',\'goal\',\'last_verify\',\'error\',\'stall_count\',\'impossible\',\'workdir\',\'warnings\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.path,self.goal,self.last_verify,self.error,self.stall_count,self.impossible,self.workdir,self.warnings,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.path,self.goal,self.last_verify,self.error,self.stall_count,self.impossible,self.workdir,self.warnings,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_goals, _type_focus, _type_focus_ignored, _type_focus_why, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_focus, _dflt_focus_ignored, _dflt_focus_why, _return_type):
 def __init__(self,*,goals:_type_goals,focus:_type_focus=_dflt_focus,focus_ignored:_type_focus_ignored=_dflt_focus_ignored,focus_why:_type_focus_why=_dflt_focus_why)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'goals',goals)
  __dataclass_builtins_object__.__setattr__(self,'focus',focus)
  __dataclass_builtins_object__.__setattr__(self,'focus_ignored',focus_ignored)
  __dataclass_builtins_object__.__setattr__(self,'focus_why',focus_why)
 return __init__
CODE["def __create_fn__(_type_goals, _type_focus, _type_focus_ignored, _type_focus_why, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_focus, _dflt_focus_ignored, _dflt_focus_why, _return_type):\n def __init__(self,*,goals:_type_goals,focus:_type_focus=_dflt_focus,focus_ignored:_type_focus_ignored=_dflt_focus_ignored,focus_why:_type_focus_why=_dflt_focus_why)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'goals',goals)\n  __dataclass_builtins_object__.__setattr__(self,'focus',focus)\n  __dataclass_builtins_object__.__setattr__(self,'focus_ignored',focus_ignored)\n  __dataclass_builtins_object__.__setattr__(self,'focus_why',focus_why)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(goals={self.goals!r}, focus={self.focus!r}, focus_ignored={self.focus_ignored!r}, focus_why={self.focus_why!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(goals={self.goals!r}, focus={self.focus!r}, focus_ignored={self.focus_ignored!r}, focus_why={self.focus_why!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.goals,self.focus,self.focus_ignored,self.focus_why,)==(other.goals,other.focus,other.focus_ignored,other.focus_why,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.goals,self.focus,self.focus_ignored,self.focus_why,)==(other.goals,other.focus,other.focus_ignored,other.focus_why,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('goals','focus','focus_ignored','focus_why',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'goals\',\'focus\',\'focus_ignored\',\'focus_why\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('goals','focus','focus_ignored','focus_why',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'goals\',\'focus\',\'focus_ignored\',\'focus_why\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.goals,self.focus,self.focus_ignored,self.focus_why,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.goals,self.focus,self.focus_ignored,self.focus_why,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_path, _type_reason, _type_outside, _type_denied, _type_whole, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_outside, _dflt_denied, _dflt_whole, _return_type):
 def __init__(self,*,path:_type_path,reason:_type_reason,outside:_type_outside=_dflt_outside,denied:_type_denied=_dflt_denied,whole:_type_whole=_dflt_whole)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'outside',outside)
  __dataclass_builtins_object__.__setattr__(self,'denied',denied)
  __dataclass_builtins_object__.__setattr__(self,'whole',whole)
 return __init__
CODE["def __create_fn__(_type_path, _type_reason, _type_outside, _type_denied, _type_whole, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_outside, _dflt_denied, _dflt_whole, _return_type):\n def __init__(self,*,path:_type_path,reason:_type_reason,outside:_type_outside=_dflt_outside,denied:_type_denied=_dflt_denied,whole:_type_whole=_dflt_whole)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'path',path)\n  __dataclass_builtins_object__.__setattr__(self,'reason',reason)\n  __dataclass_builtins_object__.__setattr__(self,'outside',outside)\n  __dataclass_builtins_object__.__setattr__(self,'denied',denied)\n  __dataclass_builtins_object__.__setattr__(self,'whole',whole)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, reason={self.reason!r}, outside={self.outside!r}, denied={self.denied!r}, whole={self.whole!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(path={self.path!r}, reason={self.reason!r}, outside={self.outside!r}, denied={self.denied!r}, whole={self.whole!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.reason,self.outside,self.denied,self.whole,)==(other.path,other.reason,other.outside,other.denied,other.whole,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.path,self.reason,self.outside,self.denied,self.whole,)==(other.path,other.reason,other.outside,other.denied,other.whole,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','reason','outside','denied','whole',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'path\',\'reason\',\'outside\',\'denied\',\'whole\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','reason','outside','denied','whole',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'path\',\'reason\',\'outside\',\'denied\',\'whole\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.path,self.reason,self.outside,self.denied,self.whole,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.path,self.reason,self.outside,self.denied,self.whole,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_session_id, _type_transcript_path, _type_cwd, _type_hook_event_name, _type_stop_hook_active, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_session_id, _dflt_transcript_path, _dflt_cwd, _dflt_hook_event_name, _dflt_stop_hook_active, _return_type):
 def __init__(self,*,session_id:_type_session_id=_dflt_session_id,transcript_path:_type_transcript_path=_dflt_transcript_path,cwd:_type_cwd=_dflt_cwd,hook_event_name:_type_hook_event_name=_dflt_hook_event_name,stop_hook_active:_type_stop_hook_active=_dflt_stop_hook_active)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'session_id',session_id)
  __dataclass_builtins_object__.__setattr__(self,'transcript_path',transcript_path)
  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)
  __dataclass_builtins_object__.__setattr__(self,'hook_event_name',hook_event_name)
  __dataclass_builtins_object__.__setattr__(self,'stop_hook_active',stop_hook_active)
 return __init__
CODE["def __create_fn__(_type_session_id, _type_transcript_path, _type_cwd, _type_hook_event_name, _type_stop_hook_active, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_session_id, _dflt_transcript_path, _dflt_cwd, _dflt_hook_event_name, _dflt_stop_hook_active, _return_type):\n def __init__(self,*,session_id:_type_session_id=_dflt_session_id,transcript_path:_type_transcript_path=_dflt_transcript_path,cwd:_type_cwd=_dflt_cwd,hook_event_name:_type_hook_event_name=_dflt_hook_event_name,stop_hook_active:_type_stop_hook_active=_dflt_stop_hook_active)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'session_id',session_id)\n  __dataclass_builtins_object__.__setattr__(self,'transcript_path',transcript_path)\n  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)\n  __dataclass_builtins_object__.__setattr__(self,'hook_event_name',hook_event_name)\n  __dataclass_builtins_object__.__setattr__(self,'stop_hook_active',stop_hook_active)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(session_id={self.session_id!r}, transcript_path={self.transcript_path!r}, cwd={self.cwd!r}, hook_event_name={self.hook_event_name!r}, stop_hook_active={self.stop_hook_active!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(session_id={self.session_id!r}, transcript_path={self.transcript_path!r}, cwd={self.cwd!r}, hook_event_name={self.hook_event_name!r}, stop_hook_active={self.stop_hook_active!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.session_id,self.transcript_path,self.cwd,self.hook_event_name,self.stop_hook_active,)==(other.session_id,other.transcript_path,other.cwd,other.hook_event_name,other.stop_hook_active,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.session_id,self.transcript_path,self.cwd,self.hook_event_name,self.stop_hook_active,)==(other.session_id,other.transcript_path,other.cwd,other.hook_event_name,other.stop_hook_active,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('session_id','transcript_path','cwd','hook_event_name','stop_hook_active',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'session_id\',\'transcript_path\',\'cwd\',\'hook_event_name\',\'stop_hook_active\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('session_id','transcript_path','cwd','hook_event_name','stop_hook_active',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'session_id\',\'transcript_path\',\'cwd\',\'hook_event_name\',\'stop_hook_active\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.session_id,self.transcript_path,self.cwd,self.hook_event_name,self.stop_hook_active,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.session_id,self.transcript_path,self.cwd,self.hook_event_name,self.stop_hook_active,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_agent, _type_goal, _type_timeout, _type_stall_limit, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_agent, _dflt_goal, _dflt_timeout, _dflt_stall_limit, _return_type):
 def __init__(self,*,agent:_type_agent=_dflt_agent,goal:_type_goal=_dflt_goal,timeout:_type_timeout=_dflt_timeout,stall_limit:_type_stall_limit=_dflt_stall_limit)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'agent',agent)
  __dataclass_builtins_object__.__setattr__(self,'goal',goal)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
  __dataclass_builtins_object__.__setattr__(self,'stall_limit',stall_limit)
 return __init__
CODE["def __create_fn__(_type_agent, _type_goal, _type_timeout, _type_stall_limit, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_agent, _dflt_goal, _dflt_timeout, _dflt_stall_limit, _return_type):\n def __init__(self,*,agent:_type_agent=_dflt_agent,goal:_type_goal=_dflt_goal,timeout:_type_timeout=_dflt_timeout,stall_limit:_type_stall_limit=_dflt_stall_limit)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'agent',agent)\n  __dataclass_builtins_object__.__setattr__(self,'goal',goal)\n  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)\n  __dataclass_builtins_object__.__setattr__(self,'stall_limit',stall_limit)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(agent={self.agent!r}, goal={self.goal!r}, timeout={self.timeout!r}, stall_limit={self.stall_limit!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(agent={self.agent!r}, goal={self.goal!r}, timeout={self.timeout!r}, stall_limit={self.stall_limit!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.agent,self.goal,self.timeout,self.stall_limit,)==(other.agent,other.goal,other.timeout,other.stall_limit,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.agent,self.goal,self.timeout,self.stall_limit,)==(other.agent,other.goal,other.timeout,other.stall_limit,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('agent','goal','timeout','stall_limit',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'agent\',\'goal\',\'timeout\',\'stall_limit\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('agent','goal','timeout','stall_limit',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'agent\',\'goal\',\'timeout\',\'stall_limit\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.agent,self.goal,self.timeout,self.stall_limit,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.agent,self.goal,self.timeout,self.stall_limit,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_path, _type_status, _type_block, _type_summary, _type_reason, _type_message, _type_hold, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_summary, _dflt_reason, _dflt_message, _dflt_hold, _return_type):
 def __init__(self,*,path:_type_path,status:_type_status,block:_type_block,summary:_type_summary=_dflt_summary,reason:_type_reason=_dflt_reason,message:_type_message=_dflt_message,hold:_type_hold=_dflt_hold)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'block',block)
  __dataclass_builtins_object__.__setattr__(self,'summary',summary)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'message',message)
  __dataclass_builtins_object__.__setattr__(self,'hold',hold)
 return __init__
CODE["def __create_fn__(_type_path, _type_status, _type_block, _type_summary, _type_reason, _type_message, _type_hold, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_summary, _dflt_reason, _dflt_message, _dflt_hold, _return_type):\n def __init__(self,*,path:_type_path,status:_type_status,block:_type_block,summary:_type_summary=_dflt_summary,reason:_type_reason=_dflt_reason,message:_type_message=_dflt_message,hold:_type_hold=_dflt_hold)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'path',path)\n  __dataclass_builtins_object__.__setattr__(self,'status',status)\n  __dataclass_builtins_object__.__setattr__(self,'block',block)\n  __dataclass_builtins_object__.__setattr__(self,'summary',summary)\n  __dataclass_builtins_object__.__setattr__(self,'reason',reason)\n  __dataclass_builtins_object__.__setattr__(self,'message',message)\n  __dataclass_builtins_object__.__setattr__(self,'hold',hold)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, status={self.status!r}, block={self.block!r}, summary={self.summary!r}, reason={self.reason!r}, message={self.message!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(path={self.path!r}, status={self.status!r}, block={self.block!r}, summary={self.summary!r}, reason={self.reason!r}, message={self.message!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.status,self.block,self.summary,self.reason,self.message,self.hold,)==(other.path,other.status,other.block,other.summary,other.reason,other.message,other.hold,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.path,self.status,self.block,self.summary,self.reason,self.message,self.hold,)==(other.path,other.status,other.block,other.summary,other.reason,other.message,other.hold,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','status','block','summary','reason','message','hold',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'path\',\'status\',\'block\',\'summary\',\'reason\',\'message\',\'hold\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','status','block','summary','reason','message','hold',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'path\',\'status\',\'block\',\'summary\',\'reason\',\'message\',\'hold\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.path,self.status,self.block,self.summary,self.reason,self.message,self.hold,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.path,self.status,self.block,self.summary,self.reason,self.message,self.hold,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_goals, _type_notes, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_goals, _dflt_notes, _return_type):
 def __init__(self,*,goals:_type_goals=_dflt_goals,notes:_type_notes=_dflt_notes)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'goals',goals)
  __dataclass_builtins_object__.__setattr__(self,'notes',notes)
 return __init__
CODE["def __create_fn__(_type_goals, _type_notes, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_goals, _dflt_notes, _return_type):\n def __init__(self,*,goals:_type_goals=_dflt_goals,notes:_type_notes=_dflt_notes)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'goals',goals)\n  __dataclass_builtins_object__.__setattr__(self,'notes',notes)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(goals={self.goals!r}, notes={self.notes!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(goals={self.goals!r}, notes={self.notes!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.goals,self.notes,)==(other.goals,other.notes,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.goals,self.notes,)==(other.goals,other.notes,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('goals','notes',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'goals\',\'notes\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('goals','notes',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'goals\',\'notes\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.goals,self.notes,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.goals,self.notes,))\n return __hash__'] = __create_fn__.__code__

def __create_fn__(_type_tracked, _type_swapped, _type_failed, _type_staged, _type_copies, _type_repositories, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_staged, _dflt_copies, _dflt_repositories, _return_type):
 def __init__(self,*,tracked:_type_tracked,swapped:_type_swapped,failed:_type_failed,staged:_type_staged=_dflt_staged,copies:_type_copies=_HAS_DEFAULT_FACTORY,repositories:_type_repositories=_dflt_repositories)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'tracked',tracked)
  __dataclass_builtins_object__.__setattr__(self,'swapped',swapped)
  __dataclass_builtins_object__.__setattr__(self,'failed',failed)
  __dataclass_builtins_object__.__setattr__(self,'staged',staged)
  __dataclass_builtins_object__.__setattr__(self,'copies',_dflt_copies() if copies is _HAS_DEFAULT_FACTORY else copies)
  __dataclass_builtins_object__.__setattr__(self,'repositories',repositories)
 return __init__
CODE["def __create_fn__(_type_tracked, _type_swapped, _type_failed, _type_staged, _type_copies, _type_repositories, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_staged, _dflt_copies, _dflt_repositories, _return_type):\n def __init__(self,*,tracked:_type_tracked,swapped:_type_swapped,failed:_type_failed,staged:_type_staged=_dflt_staged,copies:_type_copies=_HAS_DEFAULT_FACTORY,repositories:_type_repositories=_dflt_repositories)->_return_type:\n  __dataclass_builtins_object__.__setattr__(self,'tracked',tracked)\n  __dataclass_builtins_object__.__setattr__(self,'swapped',swapped)\n  __dataclass_builtins_object__.__setattr__(self,'failed',failed)\n  __dataclass_builtins_object__.__setattr__(self,'staged',staged)\n  __dataclass_builtins_object__.__setattr__(self,'copies',_dflt_copies() if copies is _HAS_DEFAULT_FACTORY else copies)\n  __dataclass_builtins_object__.__setattr__(self,'repositories',repositories)\n return __init__"] = __create_fn__.__code__

def __create_fn__():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(tracked={self.tracked!r}, swapped={self.swapped!r}, failed={self.failed!r}, staged={self.staged!r}, copies={self.copies!r}, repositories={self.repositories!r})"
 return __repr__
CODE['def __create_fn__():\n def __repr__(self):\n  return self.__class__.__qualname__ + f"(tracked={self.tracked!r}, swapped={self.swapped!r}, failed={self.failed!r}, staged={self.staged!r}, copies={self.copies!r}, repositories={self.repositories!r})"\n return __repr__'] = __create_fn__.__code__

def __create_fn__():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.tracked,self.swapped,self.failed,self.staged,self.copies,self.repositories,)==(other.tracked,other.swapped,other.failed,other.staged,other.copies,other.repositories,)
  return NotImplemented
 return __eq__
CODE['def __create_fn__():\n def __eq__(self,other):\n  if other.__class__ is self.__class__:\n   return (self.tracked,self.swapped,self.failed,self.staged,self.copies,self.repositories,)==(other.tracked,other.swapped,other.failed,other.staged,other.copies,other.repositories,)\n  return NotImplemented\n return __eq__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('tracked','swapped','failed','staged','copies','repositories',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __setattr__(self,name,value):\n  if type(self) is cls or name in (\'tracked\',\'swapped\',\'failed\',\'staged\',\'copies\',\'repositories\',):\n   raise FrozenInstanceError(f"cannot assign to field {name!r}")\n  super(cls, self).__setattr__(name, value)\n return __setattr__'] = __create_fn__.__code__

def __create_fn__(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('tracked','swapped','failed','staged','copies','repositories',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__
CODE['def __create_fn__(cls, FrozenInstanceError):\n def __delattr__(self,name):\n  if type(self) is cls or name in (\'tracked\',\'swapped\',\'failed\',\'staged\',\'copies\',\'repositories\',):\n   raise FrozenInstanceError(f"cannot delete field {name!r}")\n  super(cls, self).__delattr__(name)\n return __delattr__'] = __create_fn__.__code__

def __create_fn__():
 def __hash__(self):
  return hash((self.tracked,self.swapped,self.failed,self.staged,self.copies,self.repositories,))
 return __hash__
CODE['def __create_fn__():\n def __hash__(self):\n  return hash((self.tracked,self.swapped,self.failed,self.staged,self.copies,self.repositories,))\n return __hash__'] = __create_fn__.__code__
